package dev.proactor.bench.server.http;

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
     * @param options the parsed command line
     * @return process exit code; 0 means the server ran and was stopped by a signal
     */
    public static int run(HttpServerOptions options) {
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
