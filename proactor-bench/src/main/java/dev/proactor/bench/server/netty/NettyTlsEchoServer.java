package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.TlsCredentials;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Netty TLS echo ({@code netty-tls-nio}, {@code netty-tls-epoll}): {@link io.netty.handler.ssl.SslHandler} with
 * the JDK provider, TLS 1.3 and the JDK's default cipher suites, in front of the plain Netty echo handler; event
 * loops, allocator and socket options as {@link NettyEchoServer}.
 */
public final class NettyTlsEchoServer implements EchoServer {
    private static final int BACKLOG = 4096;

    private final NettyTransport transport;
    private final ServerOptions options;
    private final TlsCredentials credentials;
    private final ConnectionErrors errors;
    private EventLoopGroup group;
    private Channel serverChannel;

    private NettyTlsEchoServer(NettyTransport transport, ServerOptions options, TlsCredentials credentials) {
        this.transport = transport;
        this.options = options;
        this.credentials = credentials;
        this.errors = new ConnectionErrors(serverName(transport));
    }

    /**
     * The server name on a transport.
     *
     * @param transport the Netty transport
     * @return e.g. {@code netty-tls-epoll}
     */
    public static String serverName(NettyTransport transport) {
        return transport.serverName().replace("netty-", "netty-tls-");
    }

    /**
     * Creates the server after checking that the transport loads.
     *
     * @param transport   which Netty transport
     * @param options     server options
     * @param credentials key and certificate
     * @return the server, not started
     * @throws PrerequisiteException when the native transport is unavailable
     */
    public static NettyTlsEchoServer create(NettyTransport transport, ServerOptions options,
                                            TlsCredentials credentials) throws PrerequisiteException {
        transport.ensureAvailable();
        return new NettyTlsEchoServer(transport, options, credentials);
    }

    @Override
    public InetSocketAddress start() throws IOException, InterruptedException {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        SslContext ssl = SslContextBuilder.forServer(credentials.keyManagers())
                .sslProvider(SslProvider.JDK)
                .protocols(TlsCredentials.PROTOCOL)
                .ciphers(TlsCredentials.defaultCipherSuites())
                .build();
        group = new MultiThreadIoEventLoopGroup(options.threads(),
                new DefaultThreadFactory(serverName(transport)), transport.ioHandlerFactory());
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
                        ch.pipeline().addLast(ssl.newHandler(ch.alloc()), new NettyEchoHandler(delayUs, errors));
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
