package dev.proactor.examples;

import dev.proactor.DispatchStatistics;
import dev.proactor.ProactorConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code echo-server}: a TCP echo server, until SIGINT/SIGTERM. */
@Command(name = "echo-server", mixinStandardHelpOptions = true,
        description = {"TCP echo server: writes back every byte it reads, until SIGINT or SIGTERM.",
                "Prints 'listening on HOST:PORT engine=E wait=W threads=T' once it accepts."})
final class EchoServerCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "P",
            description = "TCP port to listen on, 0 .. 65535 (0: any free port, printed).")
    private int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--threads", paramLabel = "T",
            description = "Proactor pool threads, 1 .. 1024 (default: proactor.threads, else the number of "
                    + "processors).")
    private Integer threads;

    @Option(names = "--delay-us", paramLabel = "D", defaultValue = "0",
            description = "Busy work per echoed read in microseconds, 0 .. 1000000, to mimic a service that "
                    + "computes (default: ${DEFAULT-VALUE}).")
    private int delayMicros;

    @Option(names = "--buffer", paramLabel = "B", defaultValue = "16384",
            description = "Read buffer per connection in bytes, 1 .. 16777216 (default: ${DEFAULT-VALUE}).")
    private int buffer;

    @Option(names = "--heap",
            description = "Keep each connection's buffer on the Java heap instead of in direct memory, as many NIO.2"
                    + " and servlet programs do.")
    private boolean heap;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--port", port, 0, Ranges.MAX_PORT);
        Ranges.check(spec, "--delay-us", delayMicros, 0, 1_000_000);
        Ranges.check(spec, "--buffer", buffer, 1, 16 << 20);
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig config = base.toBuilder()
                .threads(threads == null ? base.threads() : Ranges.check(spec, "--threads", threads, 1, 1024))
                .build();
        EchoServer server = new EchoServer(config, new InetSocketAddress(host, port), buffer, heap, delayMicros);
        ServerLifetime lifetime = new ServerLifetime("echo-server", () -> {
            DispatchStatistics stats = server.demultiplexor().getDispatchStatistics();
            if (stats != null) { // -Dproactor.dispatchStatistics=true
                System.out.println("dispatch statistics: " + stats);
                System.out.flush();
            }
            server.close();
            System.out.println(server.totals()); // after close: every connection's traffic is counted
            System.out.flush();
        });
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d engine=%s wait=%s threads=%d%n", local.getHostString(),
                local.getPort(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), config.threads());
        System.out.flush();
        lifetime.await();
        return 0;
    }
}
