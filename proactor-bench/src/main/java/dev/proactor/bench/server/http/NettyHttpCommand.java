package dev.proactor.bench.server.http;

import dev.proactor.bench.cli.UsageException;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerMain;

/**
 * The {@code netty-http} subcommand: parses {@link HttpServerOptions}, prints the transport on
 * stderr and serves until SIGTERM/SIGINT after the ready line
 * {@code listening on H:P server=netty-http threads=T}.
 */
public final class NettyHttpCommand {
    private NettyHttpCommand() {
    }

    /**
     * Runs the server until the JVM is asked to stop.
     *
     * @param argv arguments after {@code netty-http}
     * @return process exit code; 0 means the server ran and was stopped by a signal
     */
    public static int run(String[] argv) {
        HttpServerOptions options;
        try {
            options = HttpServerOptions.parse(argv);
        } catch (UsageException e) {
            System.err.println(NettyHttpServer.NAME + ": " + e.getMessage());
            System.err.println("usage: " + NettyHttpServer.NAME + " " + HttpServerOptions.USAGE);
            return ServerMain.EXIT_USAGE;
        }
        NettyHttpServer server;
        try {
            server = NettyHttpServer.create(options);
        } catch (PrerequisiteException e) {
            return ServerMain.prerequisiteMissing(NettyHttpServer.NAME, e);
        }
        System.err.println(NettyHttpServer.NAME + ": transport " + options.transport().serverName()
                + ", root " + options.root());
        return ServerMain.serve(NettyHttpServer.NAME, server, options.bindAddress(), options.threads());
    }
}
