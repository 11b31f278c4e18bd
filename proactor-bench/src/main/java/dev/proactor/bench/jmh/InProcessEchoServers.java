package dev.proactor.bench.jmh;

import dev.proactor.ProactorConfig;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.netty.NettyEchoServer;
import dev.proactor.bench.server.netty.NettyTransport;
import dev.proactor.bench.server.nio2.Nio2EchoServer;
import dev.proactor.bench.server.proactor.ProactorEchoServer;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import java.nio.channels.spi.AsynchronousChannelProvider;

/**
 * Creates the echo servers the JMH benchmarks compare, by matrix server name, with one server thread:
 * {@code jdk-nio2} is the plain NIO.2 program on the JDK's provider, {@code nio2-on-proactor-E} the same program on
 * this project's provider over engine {@code E} (named here rather than by the process-wide property, so both run
 * in one JVM).
 */
final class InProcessEchoServers {

    /** The prefix of the NIO.2 echo program on this project's provider over an engine, as in the matrix. */
    private static final String NIO2_ON_PROACTOR = "nio2-on-proactor-";

    private InProcessEchoServers() {
    }

    static EchoServer create(String name) {
        ServerOptions options = new ServerOptions("127.0.0.1", 0, 1, 0);
        if (ProactorEchoServer.handles(name)) {
            return ProactorEchoServer.create(name, options);
        }
        if (name.equals("jdk-nio2")) {
            return new Nio2EchoServer(options, AsynchronousChannelProvider.provider());
        }
        if (name.startsWith(NIO2_ON_PROACTOR)) {
            ProactorConfig config = ProactorConfig.builder()
                    .engine(name.substring(NIO2_ON_PROACTOR.length())).strict(true).build();
            return new Nio2EchoServer(options, new ProactorAsynchronousChannelProvider(config));
        }
        try {
            return NettyEchoServer.create(NettyTransport.byServerName(name), options);
        } catch (PrerequisiteException e) {
            throw new IllegalStateException(name + " cannot run here (pick another with -p server=...): "
                    + e.getMessage(), e);
        }
    }
}
