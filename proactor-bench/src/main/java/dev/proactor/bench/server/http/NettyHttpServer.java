package dev.proactor.bench.server.http;

import dev.proactor.bench.server.BenchServer;
import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.PrerequisiteException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2 static file server: one {@link MultiThreadIoEventLoopGroup} of {@code threads}
 * event loops accepts and serves; each connection runs {@link HttpServerCodec} and a
 * {@link StaticFileHandler}. Pooled direct buffers, TCP_NODELAY, leak detection disabled.
 */
public final class NettyHttpServer implements BenchServer {
    /** Name on the command line and in the ready line. */
    public static final String NAME = "netty-http";

    private static final int BACKLOG = 4096;

    private final HttpServerOptions options;
    private final ConnectionErrors errors = new ConnectionErrors(NAME);
    private EventLoopGroup group;
    private Channel serverChannel;

    private NettyHttpServer(HttpServerOptions options) {
        this.options = options;
    }

    /**
     * Creates the server after checking that the transport loads.
     *
     * @param options server options
     * @return the server, not started
     * @throws PrerequisiteException when the native transport is unavailable
     */
    public static NettyHttpServer create(HttpServerOptions options) throws PrerequisiteException {
        options.transport().ensureAvailable();
        return new NettyHttpServer(options);
    }

    @Override
    public InetSocketAddress start() throws InterruptedException {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        group = new MultiThreadIoEventLoopGroup(options.threads(), new DefaultThreadFactory(NAME),
                options.transport().ioHandlerFactory());
        PooledByteBufAllocator allocator = new PooledByteBufAllocator(true);
        DocumentRoot root = new DocumentRoot(options.root());
        HttpDateCache dates = new HttpDateCache();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(options.transport().serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, allocator)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, allocator)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new StaticFileHandler(root, dates, errors));
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
