package dev.proactor.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one baseline server as a process: parses the options, starts the server, prints the
 * ready line {@code listening on H:P server=NAME threads=T} and serves until SIGTERM/SIGINT.
 */
public final class ServerMain {
    /** Exit code for a failure to start (e.g. the port is taken). */
    public static final int EXIT_FAILURE = 1;

    private ServerMain() {
    }

    /**
     * Runs the echo server until the JVM is asked to stop.
     *
     * @param server which server
     * @param options the server's parsed command line
     * @return process exit code; 0 means the server ran and was stopped by a signal
     */
    public static int run(BaselineServer server, ServerOptions options) {
        EchoServer echo;
        try {
            echo = server.create(options);
        } catch (PrerequisiteException e) {
            return prerequisiteMissing(server.cliName(), e);
        } catch (java.io.UncheckedIOException e) { // e.g. the TLS servers' key store cannot be made or read
            System.err.println(server.cliName() + ": cannot create: " + e.getCause().getMessage());
            return EXIT_FAILURE;
        }
        return serve(server.cliName(), echo, options.bindAddress(), options.threads());
    }

    /**
     * Reports a missing prerequisite on stderr.
     *
     * @param name server name for the message
     * @param e    what is missing
     * @return {@link PrerequisiteException#EXIT_CODE}
     */
    public static int prerequisiteMissing(String name, PrerequisiteException e) {
        System.err.println(name + ": prerequisite missing: " + e.getMessage()
                + (e.getCause() != null ? " (cause: " + e.getCause() + ")" : ""));
        return PrerequisiteException.EXIT_CODE;
    }

    /**
     * Starts a server, prints {@code listening on H:P server=NAME threads=T} and serves until
     * SIGTERM/SIGINT, which stop it from a shutdown hook.
     *
     * @param name    server name, printed in the ready line and in messages
     * @param server  the server, not started
     * @param bind    the address it binds (host as given, printed in the ready line, and port)
     * @param threads its thread count, printed in the ready line
     * @return process exit code; 0 means the server ran and was stopped by a signal
     */
    public static int serve(String name, BenchServer server, InetSocketAddress bind, int threads) {
        InetSocketAddress bound;
        try {
            bound = server.start();
        } catch (IOException e) {
            System.err.println(name + ": cannot start on " + bind.getHostString() + ":" + bind.getPort() + ": " + e);
            cleanUpAfterFailedStart(name, server);
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println(name + ": interrupted while starting");
            return EXIT_FAILURE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop();
            } catch (IOException e) {
                System.err.println(name + ": error while stopping: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                System.err.println(name + ": interrupted while stopping");
            } finally {
                stopped.countDown();
            }
        }, name + "-shutdown"));
        System.out.println("listening on " + bind.getHostString() + ":" + bound.getPort()
                + " server=" + name + " threads=" + threads);
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void cleanUpAfterFailedStart(String name, BenchServer server) {
        try {
            server.stop();
        } catch (IOException e) {
            System.err.println(name + ": error while cleaning up: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
