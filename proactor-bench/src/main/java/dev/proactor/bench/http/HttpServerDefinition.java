package dev.proactor.bench.http;

import java.util.List;

/**
 * A static file server the HTTP benchmark can launch.
 *
 * @param name       name on the command line and in the results
 * @param kind       how it is launched
 * @param properties {@code -Dkey=value} system properties (Java servers)
 * @param arguments  extra server arguments
 */
public record HttpServerDefinition(String name, Kind kind, List<String> properties, List<String> arguments) {

    /** How a server process is launched. */
    public enum Kind {
        /** The project's server: {@code java -D... -jar proactor-examples.jar http-server ...}. */
        PROACTOR,
        /** The Netty baseline in this jar: {@code java -jar proactor-bench.jar netty-http ...}. */
        NETTY,
        /**
         * Embedded Tomcat on its NIO2 connector in this jar: {@code java -D... -jar proactor-bench.jar tomcat-http ...}
         * (its properties pick the NIO.2 provider).
         */
        TOMCAT,
        /** nginx with a generated configuration, in the foreground. */
        NGINX
    }

    /**
     * Copies the lists.
     *
     * @param name       server name
     * @param kind       launch kind
     * @param properties system properties
     * @param arguments  extra arguments
     */
    public HttpServerDefinition {
        properties = List.copyOf(properties);
        arguments = List.copyOf(arguments);
    }

    /**
     * Whether the server prints a {@code listening on ...} line when ready (nginx does not: its
     * port is probed instead).
     *
     * @return true for the Java servers
     */
    public boolean printsReadyLine() {
        return kind != Kind.NGINX;
    }
}
