package dev.proactor.examples;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code echo-client}: the TCP load client, or with {@code --udp} the UDP one. */
@Command(name = "echo-client", mixinStandardHelpOptions = true,
        description = {"Load client for echo-server (or, with --udp, udp-echo-server). Every echoed byte is "
                + "checked against what was sent.",
                "Prints bytes/s (payload echoed, one direction), messages/s (one message = one --block) and, "
                        + "for ping-pong, round-trip latency percentiles. Exit 1 if nothing was echoed."})
final class EchoClientCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Server address (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", required = true, paramLabel = "P", description = "Server port, 1 .. 65535.")
    private int port;

    @Option(names = "--udp", description = "Talk UDP to udp-echo-server (always ping-pong).")
    private boolean udp;

    @Option(names = "--sessions", paramLabel = "N", defaultValue = "1",
            description = "Connections (UDP: sockets), 1 .. 100000 (default: ${DEFAULT-VALUE}).")
    private int sessions;

    @Option(names = "--block", paramLabel = "B",
            description = "Message size in bytes: TCP 1 .. 16777216 (default 512), UDP 8 .. 65507 (default 64).")
    private Integer block;

    @Option(names = "--window", paramLabel = "W",
            description = "TCP only: bytes kept in flight per session; 0 = ping-pong, one message at a time, "
                    + "which also measures latency; otherwise at least --block (default 0).")
    private Integer window;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "5",
            description = "Measured seconds, 1 .. 86400 (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--warmup", paramLabel = "S",
            description = "Seconds run before measuring and not counted, 0 .. 3600 (default: TCP 2, UDP 1).")
    private Integer warmup;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
            description = "Client proactor threads, 1 .. 1024 (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--retransmit-ms", paramLabel = "MS",
            description = "UDP only: resend a datagram not echoed within MS milliseconds, 1 .. 60000 "
                    + "(default 200).")
    private Integer retransmitMillis;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--port", port, 1, Ranges.MAX_PORT);
        Ranges.check(spec, "--sessions", sessions, 1, 100_000);
        Ranges.check(spec, "--seconds", seconds, 1, 86_400);
        Ranges.check(spec, "--threads", threads, 1, 1024);
        int warmupSeconds = Ranges.check(spec, "--warmup", warmup == null ? (udp ? 1 : 2) : warmup, 0, 3600);
        InetSocketAddress server = new InetSocketAddress(host, port);
        if (server.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve --host " + host);
        }
        return udp ? udp(server, warmupSeconds) : tcp(server, warmupSeconds);
    }

    private int tcp(InetSocketAddress server, int warmupSeconds) throws Exception {
        Ranges.unused(spec, retransmitMillis, "--retransmit-ms", "is only used with --udp");
        int b = Ranges.check(spec, "--block", block == null ? 512 : block, 1, 16 << 20);
        int w = Ranges.check(spec, "--window", window == null ? 0 : window, 0, Integer.MAX_VALUE);
        if (w != 0 && w < b) {
            Ranges.check(spec, "--window", w, b, Integer.MAX_VALUE); // says: at least --block
        }
        EchoClient.Options o = new EchoClient.Options(server, sessions, b, w, seconds, warmupSeconds, threads);
        EchoClient.Result r = new EchoClient(o).run();
        EchoClient.print(o, r, System.out);
        if (r.bytesPerSecond() == 0) {
            System.err.println("error: no bytes were echoed");
            return Main.FAILED;
        }
        return 0;
    }

    private int udp(InetSocketAddress server, int warmupSeconds) throws Exception {
        Ranges.unused(spec, window, "--window", "is not used with --udp (always ping-pong)");
        UdpEchoClient.Options o = new UdpEchoClient.Options(server, sessions,
                Ranges.check(spec, "--block", block == null ? 64 : block, 8, 65_507), seconds, warmupSeconds,
                threads, Ranges.check(spec, "--retransmit-ms", retransmitMillis == null ? 200 : retransmitMillis,
                        1, 60_000));
        UdpEchoClient.Result r = new UdpEchoClient(o).run();
        UdpEchoClient.print(o, r, System.out);
        if (r.roundTrips() == 0) {
            System.err.println("error: no datagram was echoed");
            return Main.FAILED;
        }
        return 0;
    }
}
