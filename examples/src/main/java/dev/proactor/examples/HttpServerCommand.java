package dev.proactor.examples;

import dev.proactor.ProactorConfig;
import dev.proactor.examples.http.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code http-server --port P --root DIR [--host H] [--threads T] [--max-connections N] [--idle-timeout-ms MS]
 * [--header-timeout-ms MS]}: serves DIR over HTTP/1.1 until SIGINT/SIGTERM, after printing
 * {@code listening on H:P root=DIR engine=E wait=W threads=T}.
 */
final class HttpServerCommand {

    static final String USAGE = "  http-server --port P --root DIR [--host H] [--threads T] [--max-connections N]"
            + " [--idle-timeout-ms MS] [--header-timeout-ms MS]";

    private HttpServerCommand() {
    }

    static void run(String[] argv) throws Exception {
        Args a = new Args("http-server", argv, 1, Set.of("port", "root", "host", "threads", "max-connections",
                "idle-timeout-ms", "header-timeout-ms"));
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig proactor = base.toBuilder().threads(a.integer("threads", base.threads(), 1)).build();
        int port = a.integer("port", -1, 0);
        if (port < 0) {
            throw new IllegalArgumentException("missing option --port");
        }
        if (port > 65535) {
            throw new IllegalArgumentException("--port must be at most 65535, was " + port);
        }
        Path root = Path.of(a.required("root"));
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("--root must be an existing directory, was '" + root + "'");
        }
        HttpServer.Config defaults = HttpServer.Config.defaults(
                new InetSocketAddress(a.string("host", "127.0.0.1"), port), root);
        HttpServer.Config config = defaults
                .withMaxConnections(a.integer("max-connections", defaults.maxConnections(), 1))
                .withIdleTimeoutMillis(a.integer("idle-timeout-ms", (int) defaults.idleTimeoutMillis(), 1))
                .withHeaderTimeoutMillis(a.integer("header-timeout-ms", (int) defaults.headerTimeoutMillis(), 1));
        HttpServer server = new HttpServer(proactor, config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "http-server-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d root=%s engine=%s wait=%s threads=%d%n", local.getHostString(),
                local.getPort(), server.root(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), proactor.threads());
        System.out.flush();
        stopped.await();
    }
}
