package dev.proactor.examples;

import dev.proactor.ProactorConfig;
import dev.proactor.examples.http.HttpServer;
import dev.proactor.examples.http.PemTls;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;

/**
 * {@code http-server --port P --root DIR [--host H] [--threads T] [--max-connections N] [--idle-timeout-ms MS]
 * [--header-timeout-ms MS] [--tls-cert CERT.pem --tls-key KEY.pem]}: serves DIR over HTTP/1.1 (over TLS with a
 * PEM certificate chain and unencrypted PKCS#8 key) until SIGINT/SIGTERM, after printing
 * {@code listening on H:P root=DIR engine=E wait=W threads=T} (and {@code tls=on}).
 */
final class HttpServerCommand {

    static final String USAGE = "  http-server --port P --root DIR [--host H] [--threads T] [--max-connections N]"
            + " [--idle-timeout-ms MS] [--header-timeout-ms MS] [--tls-cert CERT.pem --tls-key KEY.pem]";

    private HttpServerCommand() {
    }

    static void run(String[] argv) throws Exception {
        Args a = new Args("http-server", argv, 1, Set.of("port", "root", "host", "threads", "max-connections",
                "idle-timeout-ms", "header-timeout-ms", "tls-cert", "tls-key"));
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
        String cert = a.string("tls-cert", null);
        String key = a.string("tls-key", null);
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        SSLContext tls = cert == null ? null : PemTls.serverContext(Path.of(cert), Path.of(key));
        HttpServer server = new HttpServer(proactor, config, tls);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "http-server-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d root=%s engine=%s wait=%s threads=%d%s%n", local.getHostString(),
                local.getPort(), server.root(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), proactor.threads(), tls == null ? "" : " tls=on");
        System.out.flush();
        stopped.await();
    }
}
