package dev.proactor.examples;

import dev.proactor.ProactorConfig;
import dev.proactor.examples.http.HttpServer;
import dev.proactor.examples.http.PemTls;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code http-server}: serves a directory over HTTP/1.1 until SIGINT/SIGTERM. */
@Command(name = "http-server", mixinStandardHelpOptions = true,
        description = {"Static-file HTTP/1.1 server (GET and HEAD, keep-alive, pipelining, single-range "
                + "requests, ETag), until SIGINT or SIGTERM (then idle connections close at once and responses in flight "
                + "get --grace-ms to finish).",
                "With --tls-cert and --tls-key it serves HTTPS (TLS 1.3 and 1.2).",
                "Prints 'listening on HOST:PORT root=DIR engine=E wait=W threads=T' (and ' tls=on')."})
final class HttpServerCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "P",
            description = "TCP port to listen on, 0 .. 65535 (0: any free port, printed).")
    private int port;

    @Option(names = "--root", required = true, paramLabel = "DIR", description = "Directory to serve.")
    private Path root;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--threads", paramLabel = "T",
            description = "Proactor pool threads, 1 .. 1024 (default: proactor.threads, else the number of "
                    + "processors).")
    private Integer threads;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Connections open at once; more are answered 503, 1 .. 1000000 (default 1000).")
    private Integer maxConnections;

    @Option(names = "--idle-timeout-ms", paramLabel = "MS",
            description = "Close a keep-alive connection idle this long, 1 .. 86400000 (default 30000).")
    private Integer idleTimeoutMillis;

    @Option(names = "--header-timeout-ms", paramLabel = "MS",
            description = "Close a connection whose request head takes longer, 1 .. 86400000 (default 10000).")
    private Integer headerTimeoutMillis;

    @Option(names = "--grace-ms", paramLabel = "MS", defaultValue = "5000",
            description = "On SIGTERM/SIGINT: idle connections close at once, responses in flight get this long "
                    + "to finish, 0 .. 600000 (default: ${DEFAULT-VALUE}).")
    private int graceMillis;

    @Option(names = "--tls-cert", paramLabel = "CERT.pem",
            description = "Serve HTTPS with this PEM X.509 certificate chain (server certificate first); "
                    + "needs --tls-key.")
    private Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "KEY.pem",
            description = "The unencrypted PKCS#8 RSA or EC private key (BEGIN PRIVATE KEY) of --tls-cert.")
    private Path tlsKey;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--port", port, 0, Ranges.MAX_PORT);
        Ranges.check(spec, "--grace-ms", graceMillis, 0, 600_000);
        if (!Files.isDirectory(root)) {
            throw new ParameterException(spec.commandLine(),
                    "--root must be an existing directory, was '" + root + "'");
        }
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig proactor = base.toBuilder()
                .threads(threads == null ? base.threads() : Ranges.check(spec, "--threads", threads, 1, 1024))
                .build();
        HttpServer.Config config = HttpServer.Config.defaults(new InetSocketAddress(host, port), root);
        if (maxConnections != null) {
            config = config.withMaxConnections(
                    Ranges.check(spec, "--max-connections", maxConnections, 1, 1_000_000));
        }
        if (idleTimeoutMillis != null) {
            config = config.withIdleTimeoutMillis(
                    Ranges.check(spec, "--idle-timeout-ms", idleTimeoutMillis, 1, 86_400_000));
        }
        if (headerTimeoutMillis != null) {
            config = config.withHeaderTimeoutMillis(
                    Ranges.check(spec, "--header-timeout-ms", headerTimeoutMillis, 1, 86_400_000));
        }
        HttpServer server = new HttpServer(proactor, config, tlsContext());
        ServerLifetime lifetime = new ServerLifetime("http-server", () -> {
            try {
                server.shutdown(Duration.ofMillis(graceMillis));
            } catch (InterruptedException e) {
                server.close();
                Thread.currentThread().interrupt();
            }
        });
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d root=%s engine=%s wait=%s threads=%d%s%n", local.getHostString(),
                local.getPort(), server.root(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), proactor.threads(), tlsCert == null ? "" : " tls=on");
        System.out.flush();
        lifetime.await();
        return 0;
    }

    /** The server's TLS context from the PEM files, or null for plain HTTP; a file that is missing is a user error. */
    private SSLContext tlsContext() throws Exception {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new ParameterException(spec.commandLine(), "--tls-cert and --tls-key go together");
        }
        if (tlsCert == null) {
            return null;
        }
        for (Path file : new Path[] {tlsCert, tlsKey}) {
            if (!Files.isReadable(file)) {
                throw new ParameterException(spec.commandLine(), "cannot read '" + file + "'");
            }
        }
        return PemTls.serverContext(tlsCert, tlsKey);
    }
}
