package dev.proactor.bench.server;

import java.net.InetSocketAddress;

/**
 * The command line shared by every baseline echo server:
 * {@code --port P [--host 127.0.0.1] [--threads T] [--delay-us D]}.
 *
 * @param host    address to bind
 * @param port    port to bind (0 picks a free one)
 * @param threads demultiplexor / worker threads (meaning depends on the server)
 * @param delayUs microseconds of busy work per read completion before echoing
 */
public record ServerOptions(String host, int port, int threads, int delayUs) {

    /** Default bind address. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Usage text for {@code --help} and errors. */
    public static final String USAGE = "--port P [--host " + DEFAULT_HOST + "] [--threads T] [--delay-us D]";

    /**
     * Validates the values.
     *
     * @param host    address to bind
     * @param port    port to bind
     * @param threads thread count, at least 1
     * @param delayUs busy work per read, at least 0
     */
    public ServerOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (delayUs < 0) {
            throw new IllegalArgumentException("delay-us must be >= 0: " + delayUs);
        }
    }

    /**
     * The address to bind.
     *
     * @return host and port as a socket address
     */
    public InetSocketAddress bindAddress() {
        return new InetSocketAddress(host, port);
    }
}
