package dev.proactor.examples;

import dev.proactor.ProactorConfig;
import java.net.InetSocketAddress;
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
                    + " [--threads T]");

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
            server.close();
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
        Args a = new Args("echo-client", argv, 1,
                Set.of("host", "port", "sessions", "block", "window", "seconds", "warmup", "threads"));
        EchoClient.Options o = new EchoClient.Options(
                new InetSocketAddress(a.string("host", "127.0.0.1"), Integer.parseInt(a.required("port"))),
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
}
