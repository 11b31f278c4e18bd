package dev.proactor.bench.server.http;

import dev.proactor.bench.cli.Args;
import dev.proactor.bench.cli.UsageException;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.netty.NettyTransport;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

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
     * Parses the command line.
     *
     * @param argv arguments after {@code netty-http}
     * @return the options
     * @throws UsageException when {@code --port} or {@code --root} is missing, the root is not a
     *                        directory or a value is malformed
     */
    public static HttpServerOptions parse(String[] argv) throws UsageException {
        Args a = Args.parse(argv, Set.of("port", "root", "host", "threads", "transport"), Set.of());
        if (!a.has("port")) {
            throw new UsageException("--port is required");
        }
        int port = a.integer("port", 0, 0);
        if (port > 65535) {
            throw new UsageException("--port must be <= 65535, got " + port);
        }
        String rootText = a.string("root", null);
        if (rootText == null) {
            throw new UsageException("--root is required");
        }
        Path root = Path.of(rootText).toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new UsageException("--root must be an existing directory, got '" + rootText + "'");
        }
        return new HttpServerOptions(a.string("host", ServerOptions.DEFAULT_HOST), port, a.integer("threads", 1, 1),
                root, transport(a.string("transport", "epoll")));
    }

    private static NettyTransport transport(String name) throws UsageException {
        try {
            return NettyTransport.byServerName("netty-" + name.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--transport must be epoll, nio or io_uring, got '" + name + "'");
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
