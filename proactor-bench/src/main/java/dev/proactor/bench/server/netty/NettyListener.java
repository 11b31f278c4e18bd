package dev.proactor.bench.server.netty;

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
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A listening Netty server of the benchmarks with the settings every Netty baseline shares, so they differ only in
 * their pipelines: a pooled direct allocator, backlog 4096, {@code SO_REUSEADDR}, {@code TCP_NODELAY} on accepted
 * connections, leak detection off. Started and stopped by the owning server's thread.
 */
public final class NettyListener {

    private static final int BACKLOG = 4096;

    private final EventLoopGroup group;
    private final Channel serverChannel;

    private NettyListener(EventLoopGroup group, Channel serverChannel) {
        this.group = group;
        this.serverChannel = serverChannel;
    }

    /**
     * Starts event loops and binds.
     *
     * @param transport  the Netty transport (its event loops and server channel class)
     * @param threads    event loop threads
     * @param threadName prefix of the threads' names
     * @param address    where to listen
     * @param pipeline   fills each accepted connection's pipeline (runs on its event loop)
     * @throws InterruptedException if interrupted while binding (the event loops are shut down then)
     */
    public static NettyListener start(NettyTransport transport, int threads, String threadName, SocketAddress address,
            Consumer<Channel> pipeline) throws InterruptedException {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadName),
                transport.ioHandlerFactory());
        PooledByteBufAllocator allocator = new PooledByteBufAllocator(true);
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
                        pipeline.accept(ch);
                    }
                });
        try {
            return new NettyListener(group, bootstrap.bind(address).sync().channel());
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Closes the listening channel and shuts the event loops down (connections with them). */
    public void stop() throws InterruptedException {
        serverChannel.close().sync();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }
}
