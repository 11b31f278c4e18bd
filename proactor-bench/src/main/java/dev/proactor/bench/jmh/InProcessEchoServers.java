package dev.proactor.bench.jmh;

import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.netty.NettyEchoServer;
import dev.proactor.bench.server.netty.NettyTransport;
import dev.proactor.bench.server.proactor.ProactorEchoServer;

/** Creates the echo servers the JMH benchmarks compare, by matrix server name, with one server thread. */
final class InProcessEchoServers {

    private InProcessEchoServers() {
    }

    static EchoServer create(String name) {
        ServerOptions options = new ServerOptions("127.0.0.1", 0, 1, 0);
        if (ProactorEchoServer.handles(name)) {
            return ProactorEchoServer.create(name, options);
        }
        try {
            return NettyEchoServer.create(NettyTransport.byServerName(name), options);
        } catch (PrerequisiteException e) {
            throw new IllegalStateException(name + " cannot run here (pick another with -p server=...): "
                    + e.getMessage(), e);
        }
    }
}
