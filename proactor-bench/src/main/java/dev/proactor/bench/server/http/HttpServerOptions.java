package dev.proactor.bench.server.http;

import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.netty.NettyTransport;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The command line of the {@code netty-http} static file server:
 * {@code --port P --root DIR [--host 127.0.0.1] [--threads T] [--transport epoll|nio|io_uring]}.
 *
 * @param host      address to bind
 * @param port      port to bind (0 picks a free one)
 * @param threads   event loops (accept on the same group)
 * @param root      document root, an existing directory
 * @param transport Netty transport
 */
public record HttpServerOptions(String host, int port, int threads, Path root, NettyTransport transport) {

    /** Usage text for errors. */
    public static final String USAGE = "--port P --root DIR [--host " + ServerOptions.DEFAULT_HOST
            + "] [--threads T] [--transport epoll|nio|io_uring]";

    /**
     * Validates the values.
     *
     * @param host      address to bind
     * @param port      port to bind
     * @param threads   event loops, at least 1
     * @param root      document root
     * @param transport Netty transport
     */
    public HttpServerOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(transport, "transport");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
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
