package dev.proactor.bench;

import dev.proactor.bench.costs.CostsCli;
import dev.proactor.bench.file.FileBenchCommand;
import dev.proactor.bench.http.HttpBenchCli;
import dev.proactor.bench.matrix.MatrixCli;
import dev.proactor.bench.server.BaselineServer;
import dev.proactor.bench.server.ServerMain;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.http.HttpServerOptions;
import dev.proactor.bench.server.http.NettyHttpCommand;
import dev.proactor.bench.server.tomcat.TomcatHttpServer;
import dev.proactor.bench.server.http.NettyHttpServer;
import dev.proactor.bench.server.netty.NettyTransport;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code proactor-bench.jar}: {@code matrix ...} runs the echo benchmark matrix, {@code costs ...}
 * counts each echo server's costs per message (CPU, system calls, context switches) with perf,
 * {@code http-bench ...} the HTTP static file benchmark, {@code netty-http ...} the Netty static file server, and
 * a server name runs that baseline echo server. {@code COMMAND --help} lists a command's options.
 *
 * <p>Exit status: 0 on success (a server stopped by a signal), 1 on a failure, 2 for a wrong command line (one
 * {@code error: …} line, then the synopsis of that command only), 3 for a missing prerequisite (wrk, a native
 * transport), which the benchmark runners read as "skip this server".
 */
@Command(name = "proactor-bench.jar", mixinStandardHelpOptions = true, version = "proactor bench 0.1.0",
        synopsisSubcommandLabel = "COMMAND",
        description = "Benchmarks and baseline servers. The C echo servers (epoll, io_uring) and the load generator "
                + "are target/native/epoll_echo, target/native/uring_echo and target/native/loadgen.")
public final class Main implements Runnable {

    /** Exit status of a wrong command line. */
    public static final int EXIT_USAGE = 2;

    @Spec
    private CommandSpec spec;

    private Main() {
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing COMMAND");
    }

    /**
     * Runs the command line and exits with its status (a server returns only once stopped).
     *
     * @param args command and its arguments
     */
    public static void main(String[] args) {
        Charset cs = Charset.defaultCharset();
        int code = execute(args, new PrintWriter(System.out, true, cs), new PrintWriter(System.err, true, cs));
        // Exit code 0 returns normally: a server stopped by a signal is already in JVM shutdown.
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Parses and runs one command line; help goes to {@code out}, errors to {@code err}.
     *
     * @param args command and its arguments
     * @param out  where help is printed
     * @param err  where errors are printed
     * @return the exit status
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.addSubcommand("matrix", MatrixCli.commandLine());
        cl.addSubcommand("costs", CostsCli.commandLine());
        cl.addSubcommand("http-bench", HttpBenchCli.commandLine());
        cl.addSubcommand(new FileBenchCommand());
        cl.addSubcommand(NettyHttpServer.NAME, new NettyHttp());
        cl.addSubcommand(TomcatHttpServer.NAME, new TomcatHttp());
        cl.addSubcommand(new dev.proactor.bench.tls.TlsEchoCommand());
        for (BaselineServer s : BaselineServer.values()) {
            cl.addSubcommand(s.cliName(), new BaselineEcho(s));
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, argv) -> {
            err.println("error: " + e.getMessage());
            CommandLine wrong = e.getCommandLine();
            err.print(wrong.getHelp().synopsis(0));
            err.println("Run '" + wrong.getCommandSpec().qualifiedName() + " --help' for every option.");
            return EXIT_USAGE;
        });
        return cl.execute(args);
    }

    /** The options every server command has. */
    private abstract static class ServerCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--port", required = true, paramLabel = "P",
                description = "Port to listen on, 0 .. 65535 (0: any free port, printed).")
        int port;

        @Option(names = "--host", paramLabel = "H", defaultValue = ServerOptions.DEFAULT_HOST,
                description = "Address to bind (default: ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
                description = "Server threads, 1 .. 1024 (meaning depends on the server; default: "
                        + "${DEFAULT-VALUE}).")
        int threads;

        int check(String option, int value, int min, int max) {
            if (value < min || value > max) {
                throw new ParameterException(spec.commandLine(),
                        option + " must be " + min + " .. " + max + ", was " + value);
            }
            return value;
        }

        /**
         * Checks --port and --threads, and that the served directory exists.
         *
         * @return the directory, absolute and normalized
         */
        Path checkedRoot(Path root) {
            check("--port", port, 0, 65535);
            check("--threads", threads, 1, 1024);
            Path dir = root.toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new ParameterException(spec.commandLine(),
                        "--root must be an existing directory, was '" + root + "'");
            }
            return dir;
        }
    }

    /** One baseline echo server. */
    @Command(mixinStandardHelpOptions = true, description = "Baseline echo server for the matrix, until SIGTERM.")
    private static final class BaselineEcho extends ServerCommand {
        private final BaselineServer server;

        @Option(names = "--delay-us", paramLabel = "D", defaultValue = "0",
                description = "Busy work per read completion before echoing, microseconds, 0 .. 1000000 "
                        + "(default: ${DEFAULT-VALUE}).")
        int delayUs;

        BaselineEcho(BaselineServer server) {
            this.server = server;
        }

        @Override
        public Integer call() {
            check("--port", port, 0, 65535);
            check("--threads", threads, 1, 1024);
            check("--delay-us", delayUs, 0, 1_000_000);
            return ServerMain.run(server, new ServerOptions(host, port, threads, delayUs));
        }
    }

    @Command(name = "netty-http", mixinStandardHelpOptions = true,
            description = "Netty static file server (the HTTP benchmark's baseline), until SIGTERM.")
    private static final class NettyHttp extends ServerCommand {
        @Option(names = "--root", required = true, paramLabel = "DIR", description = "Directory to serve.")
        Path root;

        @Option(names = "--transport", paramLabel = "epoll|nio|io_uring", defaultValue = "epoll",
                description = "Netty transport (default: ${DEFAULT-VALUE}).")
        String transport;

        @Override
        public Integer call() {
            Path dir = checkedRoot(root);
            NettyTransport t;
            try {
                t = NettyTransport.byServerName("netty-" + transport.toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(),
                        "--transport must be epoll, nio or io_uring, was '" + transport + "'");
            }
            return NettyHttpCommand.run(new HttpServerOptions(host, port, threads, dir, t));
        }
    }

    @Command(name = "tomcat-http", mixinStandardHelpOptions = true,
            description = "Embedded Tomcat on its NIO2 connector serving a directory, until SIGTERM (the NIO.2 "
                    + "provider comes from -Djava.nio.channels.spi.AsynchronousChannelProvider).")
    private static final class TomcatHttp extends ServerCommand {
        @Option(names = "--root", required = true, paramLabel = "DIR", description = "Directory to serve.")
        Path root;

        @Override
        public Integer call() {
            Path dir = checkedRoot(root);
            System.err.println(TomcatHttpServer.NAME + ": NIO.2 provider "
                    + java.nio.channels.spi.AsynchronousChannelProvider.provider().getClass().getName()
                    + ", root " + dir);
            return ServerMain.serve(TomcatHttpServer.NAME, new TomcatHttpServer(host, port, threads, dir),
                    new java.net.InetSocketAddress(host, port), threads);
        }
    }
}
