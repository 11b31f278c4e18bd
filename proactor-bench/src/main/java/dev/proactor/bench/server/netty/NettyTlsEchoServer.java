package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.TlsCredentials;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Netty TLS echo ({@code netty-tls-nio}, {@code netty-tls-epoll}): {@link io.netty.handler.ssl.SslHandler} with
 * the JDK provider, TLS 1.3 and the JDK's default cipher suites, in front of the plain Netty echo handler; event
 * loops, allocator and socket options as {@link NettyEchoServer}.
 */
public final class NettyTlsEchoServer implements EchoServer {
    private final NettyTransport transport;
    private final ServerOptions options;
    private final TlsCredentials credentials;
    private final ConnectionErrors errors;
    private NettyListener listener;

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
        SslContext ssl = SslContextBuilder.forServer(credentials.keyManagers())
                .sslProvider(SslProvider.JDK)
                .protocols(TlsCredentials.PROTOCOL)
                .ciphers(TlsCredentials.defaultCipherSuites())
                .build();
        int delayUs = options.delayUs();
        listener = NettyListener.start(transport, options.threads(), serverName(transport), options.bindAddress(),
                ch -> ch.pipeline().addLast(ssl.newHandler(ch.alloc()), new NettyEchoHandler(delayUs, errors)));
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
