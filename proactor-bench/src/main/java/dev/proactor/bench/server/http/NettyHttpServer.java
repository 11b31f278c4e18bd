package dev.proactor.bench.server.http;

import dev.proactor.bench.server.BenchServer;
import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.netty.NettyListener;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;

/**
 * Netty 4.2 static file server: one {@link MultiThreadIoEventLoopGroup} of {@code threads}
 * event loops accepts and serves; each connection runs {@link HttpServerCodec} and a
 * {@link StaticFileHandler}. Pooled direct buffers, TCP_NODELAY, leak detection disabled.
 */
public final class NettyHttpServer implements BenchServer {
    /** Name on the command line and in the ready line. */
    public static final String NAME = "netty-http";

    private final HttpServerOptions options;
    private final ConnectionErrors errors = new ConnectionErrors(NAME);
    private NettyListener listener;

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
        DocumentRoot root = new DocumentRoot(options.root());
        HttpDateCache dates = new HttpDateCache();
        listener = NettyListener.start(options.transport(), options.threads(), NAME, options.bindAddress(),
                ch -> ch.pipeline().addLast(new HttpServerCodec(), new StaticFileHandler(root, dates, errors)));
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
