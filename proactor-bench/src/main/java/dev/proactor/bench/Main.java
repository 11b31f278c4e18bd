package dev.proactor.bench;

import dev.proactor.bench.http.HttpBenchCommand;
import dev.proactor.bench.matrix.MatrixCommand;
import dev.proactor.bench.server.BaselineServer;
import dev.proactor.bench.server.ServerMain;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.http.HttpServerOptions;
import dev.proactor.bench.server.http.NettyHttpCommand;
import dev.proactor.bench.server.http.NettyHttpServer;
import java.util.Arrays;
import java.util.Optional;

/**
 * Entry point of {@code proactor-bench.jar}: {@code matrix ...} runs the echo benchmark matrix,
 * {@code http-bench ...} the HTTP static file benchmark, {@code netty-http ...} the Netty static
 * file server, and a server name runs that baseline echo server.
 */
public final class Main {
    private static final int EXIT_USAGE = 64;

    private Main() {
    }

    /**
     * Dispatches the subcommand.
     *
     * @param args subcommand and its arguments
     */
    public static void main(String[] args) {
        if (args.length == 0 || isHelp(args[0])) {
            usage();
            if (args.length == 0) {
                System.exit(EXIT_USAGE);
            }
            return;
        }
        String command = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        int code;
        if (command.equals("matrix")) {
            code = MatrixCommand.run(rest);
        } else if (command.equals("http-bench")) {
            code = HttpBenchCommand.run(rest);
        } else if (command.equals(NettyHttpServer.NAME)) {
            code = NettyHttpCommand.run(rest);
        } else {
            Optional<BaselineServer> server = BaselineServer.byName(command);
            if (server.isEmpty()) {
                System.err.println("unknown command '" + command + "'");
                usage();
                System.exit(EXIT_USAGE);
                return;
            }
            code = ServerMain.run(server.get(), rest);
        }
        // Exit code 0 returns normally: a server stopped by a signal is already in JVM shutdown.
        if (code != 0) {
            System.exit(code);
        }
    }

    private static boolean isHelp(String arg) {
        return arg.equals("help") || arg.equals("--help") || arg.equals("-h");
    }

    private static void usage() {
        StringBuilder sb = new StringBuilder();
        sb.append("usage: java -jar proactor-bench.jar COMMAND [options]\n\n");
        sb.append("commands:\n");
        sb.append("  matrix [--quick|--full] ...   run the echo benchmark matrix (matrix --help for options)\n");
        sb.append("  http-bench ...                run the HTTP static file benchmark with wrk (http-bench --help)\n");
        sb.append(String.format("  %-28s  static file server: %s %s%n", NettyHttpServer.NAME, NettyHttpServer.NAME,
                HttpServerOptions.USAGE));
        for (BaselineServer s : BaselineServer.values()) {
            sb.append(String.format("  %-28s  baseline echo server: %s %s%n", s.cliName(), s.cliName(), ServerOptions.USAGE));
        }
        sb.append("\nThe C epoll echo server and the load generator are target/native/epoll_echo and target/native/loadgen.\n");
        System.err.print(sb);
    }
}
