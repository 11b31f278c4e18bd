package dev.proactor.bench.matrix;

import java.util.List;

/**
 * A server the matrix can launch.
 *
 * @param name        name used on the command line and in results
 * @param kind        how it is launched
 * @param properties  {@code -Dkey=value} system properties (project servers only)
 */
public record ServerDefinition(String name, Kind kind, List<String> properties) {

    /** How a server process is launched. */
    public enum Kind {
        /** A Java baseline in proactor-bench.jar: {@code java -jar proactor-bench.jar NAME ...}. */
        BENCH_JAVA,
        /** The C epoll echo server: {@code target/native/epoll_echo ...}. */
        NATIVE_C,
        /** The project's echo server: {@code java -D... -jar proactor-examples.jar echo-server ...}. */
        PROACTOR
    }

    /**
     * Copies the property list.
     *
     * @param name       server name
     * @param kind       launch kind
     * @param properties system properties
     */
    public ServerDefinition {
        properties = List.copyOf(properties);
    }
}
