package dev.proactor.examples;

import dev.proactor.ProactorConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code udp-echo-server}: a UDP echo server, until SIGINT/SIGTERM. */
@Command(name = "udp-echo-server", mixinStandardHelpOptions = true,
        description = {"UDP echo server: sends every datagram back to its sender, until SIGINT or SIGTERM.",
                "Prints 'listening on HOST:PORT (udp) engine=E wait=W threads=T'."})
final class UdpEchoServerCommand implements Callable<Integer> {

    /** Receives kept in flight on the socket. */
    private static final int RECEIVES_IN_FLIGHT = 16;

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "P",
            description = "UDP port to bind, 0 .. 65535 (0: any free port, printed).")
    private int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--threads", paramLabel = "T",
            description = "Proactor pool threads, 1 .. 1024 (default: proactor.threads, else the number of "
                    + "processors).")
    private Integer threads;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--port", port, 0, Ranges.MAX_PORT);
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig config = base.toBuilder()
                .threads(threads == null ? base.threads() : Ranges.check(spec, "--threads", threads, 1, 1024))
                .build();
        UdpEchoServer server = new UdpEchoServer(config, new InetSocketAddress(host, port), RECEIVES_IN_FLIGHT);
        ServerLifetime lifetime = new ServerLifetime("udp-echo-server", server::close);
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d (udp) engine=%s wait=%s threads=%d%n", local.getHostString(),
                local.getPort(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), config.threads());
        System.out.flush();
        lifetime.await();
        return 0;
    }
}
