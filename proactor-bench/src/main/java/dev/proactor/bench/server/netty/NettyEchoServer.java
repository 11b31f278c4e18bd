package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.InetSocketAddress;

/**
 * Netty 4.2 echo server: one {@link MultiThreadIoEventLoopGroup} of {@code threads} event
 * loops accepts and serves, with pooled direct buffers and TCP_NODELAY.
 *
 * <p>Leak detection is disabled (it samples buffers and is not part of a production setup).
 */
public final class NettyEchoServer implements EchoServer {
    private final NettyTransport transport;
    private final ServerOptions options;
    private final ConnectionErrors errors;
    private NettyListener listener;

    private NettyEchoServer(NettyTransport transport, ServerOptions options) {
        this.transport = transport;
        this.options = options;
        this.errors = new ConnectionErrors(transport.serverName());
    }

    /**
     * Creates the server after checking that the transport loads.
     *
     * @param transport which Netty transport
     * @param options   server options
     * @return the server, not started
     * @throws PrerequisiteException when the native transport is unavailable
     */
    public static NettyEchoServer create(NettyTransport transport, ServerOptions options) throws PrerequisiteException {
        transport.ensureAvailable();
        return new NettyEchoServer(transport, options);
    }

    @Override
    public InetSocketAddress start() throws InterruptedException {
        int delayUs = options.delayUs();
        listener = NettyListener.start(transport, options.threads(), transport.serverName(), options.bindAddress(),
                ch -> ch.pipeline().addLast(new NettyEchoHandler(delayUs, errors)));
        return listener.address();
    }

    @Override
    public void stop() throws InterruptedException {
        if (listener != null) {
            listener.stop();
        }
        System.err.println(errors.summary());
    }
}
