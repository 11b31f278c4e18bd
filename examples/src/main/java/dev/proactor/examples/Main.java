package dev.proactor.examples;

import dev.proactor.DispatchStatistics;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Entry point of {@code proactor-examples.jar}: {@code java -jar proactor-examples.jar <command> [options]}.
 * Exit status 0 on success, 2 on a usage error, 1 on a failure.
 */
public final class Main {

    private static final String USAGE = String.join(System.lineSeparator(),
            "usage: java [-Dproactor.engine=E -Dproactor.waitStrategy=W ...] -jar proactor-examples.jar COMMAND ...",
            "  echo-server --port P [--host H] [--threads T] [--delay-us D] [--buffer B]",
            "  echo-client --host H --port P [--sessions N] [--block B] [--window W] [--seconds S] [--warmup S]"
                    + " [--threads T]",
            "  echo-client --udp --host H --port P [--sessions N] [--block B] [--seconds S] [--warmup S]"
                    + " [--threads T] [--retransmit-ms MS]",
            HttpServerCommand.USAGE,
            "  udp-echo-server --port P [--host H] [--threads T]",
            "  file-copy SRC DST [--block B] [--depth D]");

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        try {
            switch (args[0]) {
                case "echo-server" -> echoServer(args);
                case "echo-client" -> echoClient(args);
                case "http-server" -> HttpServerCommand.run(args);
                case "udp-echo-server" -> udpEchoServer(args);
                case "file-copy" -> fileCopy(args);
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "'");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
    }

    private static void echoServer(String[] argv) throws Exception {
        Args a = new Args("echo-server", argv, 1, Set.of("port", "host", "threads", "delay-us", "buffer"));
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig config = base.toBuilder().threads(a.integer("threads", base.threads(), 1)).build();
        InetSocketAddress bind = new InetSocketAddress(a.string("host", "127.0.0.1"),
                a.integer("port", -1, 0));
        if (bind.getPort() < 0) {
            throw new IllegalArgumentException("missing option --port");
        }
        EchoServer server = new EchoServer(config, bind, a.integer("buffer", 16 * 1024, 1),
                a.integer("delay-us", 0, 0));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            DispatchStatistics stats = server.demultiplexor().getDispatchStatistics();
            if (stats != null) { // -Dproactor.dispatchStatistics=true
                System.out.println("dispatch statistics: " + stats);
                System.out.flush();
            }
            server.close();
            System.out.println(server.totals()); // after close: every connection's traffic is counted
            System.out.flush();
            stopped.countDown();
        }, "echo-server-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d engine=%s wait=%s threads=%d%n", local.getHostString(),
                local.getPort(), server.demultiplexor().getEngineName(), server.demultiplexor().getWaitStrategyName(),
                config.threads());
        System.out.flush();
        stopped.await();
    }

    private static void echoClient(String[] argv) throws Exception {
        Args a = new Args("echo-client", argv, 1, Set.of("host", "port", "sessions", "block", "window", "seconds",
                "warmup", "threads", "retransmit-ms"), Set.of("udp"));
        if (a.flag("udp")) {
            udpEchoClient(a);
            return;
        }
        if (a.has("retransmit-ms")) {
            throw new IllegalArgumentException("--retransmit-ms is only used with --udp");
        }
        EchoClient.Options o = new EchoClient.Options(
                new InetSocketAddress(a.string("host", "127.0.0.1"), port(a.required("port"))),
                a.integer("sessions", 1, 1), a.integer("block", 512, 1), a.integer("window", 0, 0),
                a.integer("seconds", 5, 1), a.integer("warmup", 2, 0), a.integer("threads", 1, 1));
        if (o.window() != 0 && o.window() < o.block()) {
            throw new IllegalArgumentException("--window must be 0 (ping-pong) or at least --block");
        }
        EchoClient.Result r = new EchoClient(o).run();
        EchoClient.print(o, r, System.out);
        if (r.bytesPerSecond() == 0) {
            System.err.println("error: no bytes were echoed");
            System.exit(1);
        }
    }

    private static void udpEchoClient(Args a) throws Exception {
        if (a.has("window")) {
            throw new IllegalArgumentException("--window is not used with --udp (always ping-pong)");
        }
        UdpEchoClient.Options o = new UdpEchoClient.Options(
                new InetSocketAddress(a.string("host", "127.0.0.1"), port(a.required("port"))),
                a.integer("sessions", 1, 1), a.integer("block", 64, 8), a.integer("seconds", 5, 1),
                a.integer("warmup", 1, 0), a.integer("threads", 1, 1), a.integer("retransmit-ms", 200, 1));
        if (o.server().isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve --host " + o.server().getHostString());
        }
        UdpEchoClient.Result r;
        try {
            r = new UdpEchoClient(o).run();
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
            return;
        }
        UdpEchoClient.print(o, r, System.out);
        if (r.roundTrips() == 0) {
            System.err.println("error: no datagram was echoed");
            System.exit(1);
        }
    }

    private static void udpEchoServer(String[] argv) throws Exception {
        Args a = new Args("udp-echo-server", argv, 1, Set.of("port", "host", "threads"));
        ProactorConfig base = ProactorConfig.fromSystemProperties();
        ProactorConfig config = base.toBuilder().threads(a.integer("threads", base.threads(), 1)).build();
        InetSocketAddress bind = new InetSocketAddress(a.string("host", "127.0.0.1"), port(a.required("port")));
        UdpEchoServer server = new UdpEchoServer(config, bind, 16);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "udp-echo-server-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d (udp) engine=%s wait=%s threads=%d%n", local.getHostString(),
                local.getPort(), server.demultiplexor().getEngineName(),
                server.demultiplexor().getWaitStrategyName(), config.threads());
        System.out.flush();
        stopped.await();
    }

    private static void fileCopy(String[] argv) throws Exception {
        if (argv.length < 3 || argv[1].startsWith("--") || argv[2].startsWith("--")) {
            throw new IllegalArgumentException("file-copy needs SRC and DST before any option");
        }
        Path source = Path.of(argv[1]);
        Path target = Path.of(argv[2]);
        Args a = new Args("file-copy", argv, 3, Set.of("block", "depth"));
        if (!Files.isRegularFile(source)) {
            throw new IllegalArgumentException("SRC must be an existing regular file, was '" + source + "'");
        }
        if (Files.exists(target) && Files.isSameFile(source, target)) {
            throw new IllegalArgumentException("SRC and DST are the same file");
        }
        FileCopy copy = new FileCopy(source, target, a.integer("block", 256 * 1024, 1), a.integer("depth", 4, 1));
        FileCopy.Result r;
        try {
            r = copy.run();
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.printf("copied %d bytes in %.3f s (%.1f MiB/s)%n", r.bytes(), r.seconds(), r.mibPerSecond());
    }

    private static int port(String value) {
        int port;
        try {
            port = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be an integer, was '" + value + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0 .. 65535, was " + port);
        }
        return port;
    }
}
