package dev.proactor.bench.matrix;

import java.util.List;

/**
 * A server the matrix can launch.
 *
 * @param name        name used on the command line and in results
 * @param kind        how it is launched
 * @param command     for {@link Kind#BENCH_JAVA}: the proactor-bench command that starts it (usually {@code name});
 *                    for {@link Kind#NATIVE_C}: the executable's file name in the native directory
 * @param properties  {@code -Dkey=value} system properties given to the server's JVM
 * @param arguments   options added to the server's own command line (e.g. the echo server's {@code --heap})
 */
public record ServerDefinition(String name, Kind kind, String command, List<String> properties,
                               List<String> arguments) {

    /** How a server process is launched. */
    public enum Kind {
        /** A Java baseline in proactor-bench.jar: {@code java -jar proactor-bench.jar NAME ...}. */
        BENCH_JAVA,
        /** A C echo server: {@code target/native/COMMAND ...} ({@code epoll_echo}, {@code uring_echo}). */
        NATIVE_C,
        /** The project's echo server: {@code java -D... -jar proactor-examples.jar echo-server ...}. */
        PROACTOR
    }

    /**
     * Copies the lists.
     *
     * @param name       server name
     * @param kind       launch kind
     * @param command    bench command of a {@link Kind#BENCH_JAVA} server
     * @param properties system properties
     * @param arguments  options added to the server's command line
     */
    public ServerDefinition {
        properties = List.copyOf(properties);
        arguments = List.copyOf(arguments);
    }

    /**
     * A server with no options of its own.
     *
     * @param name       server name
     * @param kind       launch kind
     * @param command    bench command of a {@link Kind#BENCH_JAVA} server
     * @param properties system properties
     */
    public ServerDefinition(String name, Kind kind, String command, List<String> properties) {
        this(name, kind, command, properties, List.of());
    }

    /**
     * A server whose bench command, if any, is its name.
     *
     * @param name       server name
     * @param kind       launch kind
     * @param properties system properties
     */
    public ServerDefinition(String name, Kind kind, List<String> properties) {
        this(name, kind, name, properties);
    }
}
