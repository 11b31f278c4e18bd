package dev.proactor.examples;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jdk-echo-server}: the JDK's AsynchronousSocketChannel echo, the demo's point of comparison. */
@Command(name = "jdk-echo-server", mixinStandardHelpOptions = true,
        description = {"The same TCP echo on the JDK's AsynchronousSocketChannel (not on proactor), as a point "
                + "of comparison for echo-server; until SIGINT or SIGTERM.",
                "Prints 'listening on HOST:PORT engine=jdk-nio2 threads=T'."})
final class JdkEchoServerCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "P",
            description = "TCP port to listen on, 0 .. 65535 (0: any free port, printed).")
    private int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--threads", paramLabel = "T",
            description = "Threads of the channel group, 1 .. 1024 (default: the number of processors).")
    private Integer threads;

    @Option(names = "--buffer", paramLabel = "B", defaultValue = "16384",
            description = "Read buffer per connection in bytes, 1 .. 16777216 (default: ${DEFAULT-VALUE}).")
    private int buffer;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--port", port, 0, Ranges.MAX_PORT);
        Ranges.check(spec, "--buffer", buffer, 1, 16 << 20);
        int t = threads == null ? Runtime.getRuntime().availableProcessors()
                : Ranges.check(spec, "--threads", threads, 1, 1024);
        JdkEchoServer server = new JdkEchoServer(new InetSocketAddress(host, port), t, buffer);
        ServerLifetime lifetime = new ServerLifetime("jdk-echo-server", server::close);
        InetSocketAddress local = server.localAddress();
        System.out.printf("listening on %s:%d engine=jdk-nio2 threads=%d%n", local.getHostString(), local.getPort(),
                t);
        System.out.flush();
        lifetime.await();
        return 0;
    }
}
