package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2 echo server: one {@link MultiThreadIoEventLoopGroup} of {@code threads} event
 * loops accepts and serves, with pooled direct buffers and TCP_NODELAY.
 *
 * <p>Leak detection is disabled (it samples buffers and is not part of a production setup).
 */
public final class NettyEchoServer implements EchoServer {
    private static final int BACKLOG = 4096;

    private final NettyTransport transport;
    private final ServerOptions options;
    private final ConnectionErrors errors;
    private EventLoopGroup group;
    private Channel serverChannel;

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
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        group = new MultiThreadIoEventLoopGroup(options.threads(),
                new DefaultThreadFactory(transport.serverName()), transport.ioHandlerFactory());
        PooledByteBufAllocator allocator = new PooledByteBufAllocator(true);
        int delayUs = options.delayUs();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, allocator)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, allocator)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new NettyEchoHandler(delayUs, errors));
                    }
                });
        serverChannel = bootstrap.bind(options.bindAddress()).sync().channel();
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public void stop() throws InterruptedException {
        if (serverChannel != null) {
            serverChannel.close().sync();
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
        System.err.println(errors.summary());
    }
}
