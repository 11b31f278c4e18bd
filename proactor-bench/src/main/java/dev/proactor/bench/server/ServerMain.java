package dev.proactor.bench.server;

import dev.proactor.bench.cli.UsageException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one baseline server as a process: parses the options, starts the server, prints the
 * ready line {@code listening on H:P server=NAME threads=T} and serves until SIGTERM/SIGINT.
 */
public final class ServerMain {
    /** Exit code for a command-line error. */
    public static final int EXIT_USAGE = 64;
    /** Exit code for a failure to start (e.g. the port is taken). */
    public static final int EXIT_FAILURE = 1;

    private ServerMain() {
    }

    /**
     * Runs the server until the JVM is asked to stop.
     *
     * @param server which server
     * @param argv   the server's command line
     * @return process exit code; 0 means the server ran and was stopped by a signal
     */
    public static int run(BaselineServer server, String[] argv) {
        ServerOptions options;
        try {
            options = ServerOptions.parse(argv);
        } catch (UsageException e) {
            System.err.println(server.cliName() + ": " + e.getMessage());
            System.err.println("usage: " + server.cliName() + " " + ServerOptions.USAGE);
            return EXIT_USAGE;
        }
        EchoServer echo;
        try {
            echo = server.create(options);
        } catch (PrerequisiteException e) {
            System.err.println(server.cliName() + ": prerequisite missing: " + e.getMessage()
                    + (e.getCause() != null ? " (cause: " + e.getCause() + ")" : ""));
            return PrerequisiteException.EXIT_CODE;
        }
        InetSocketAddress bound;
        try {
            bound = echo.start();
        } catch (IOException e) {
            System.err.println(server.cliName() + ": cannot start on " + options.host() + ":" + options.port() + ": " + e);
            cleanUpAfterFailedStart(server, echo);
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println(server.cliName() + ": interrupted while starting");
            return EXIT_FAILURE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                echo.stop();
            } catch (IOException e) {
                System.err.println(server.cliName() + ": error while stopping: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                System.err.println(server.cliName() + ": interrupted while stopping");
            } finally {
                stopped.countDown();
            }
        }, server.cliName() + "-shutdown"));
        System.out.println("listening on " + options.host() + ":" + bound.getPort()
                + " server=" + server.cliName() + " threads=" + options.threads());
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void cleanUpAfterFailedStart(BaselineServer server, EchoServer echo) {
        try {
            echo.stop();
        } catch (IOException e) {
            System.err.println(server.cliName() + ": error while cleaning up: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
