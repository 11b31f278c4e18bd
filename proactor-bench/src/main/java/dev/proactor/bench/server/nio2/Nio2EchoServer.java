package dev.proactor.bench.server.nio2;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.NamedThreadFactory;
import dev.proactor.bench.server.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.concurrent.TimeUnit;

/**
 * Echo server on the JDK's own proactor API: {@link AsynchronousServerSocketChannel} in a fixed thread pool group
 * of T threads, plain {@code java.nio.channels} code. By default the group comes from the process's provider
 * ({@link AsynchronousChannelGroup#withFixedThreadPool}: the JDK's, or ours when
 * {@code java.nio.channels.spi.AsynchronousChannelProvider} names it); in-process benchmarks may name the provider.
 */
public final class Nio2EchoServer implements EchoServer {
    private static final int BACKLOG = 4096;

    private final ServerOptions options;
    private final AsynchronousChannelProvider provider;
    private final ConnectionErrors errors = new ConnectionErrors("jdk-nio2");
    private final AcceptHandler acceptHandler = new AcceptHandler();
    private AsynchronousChannelGroup group;
    private AsynchronousServerSocketChannel listener;
    private volatile boolean stopping;

    /**
     * Creates the server.
     *
     * @param options server options
     */
    public Nio2EchoServer(ServerOptions options) {
        this(options, AsynchronousChannelProvider.provider());
    }

    /**
     * Creates the server on a given provider (several providers side by side in one process).
     *
     * @param options  server options
     * @param provider the provider whose group and channels serve
     */
    public Nio2EchoServer(ServerOptions options, AsynchronousChannelProvider provider) {
        this.options = options;
        this.provider = provider;
    }

    @Override
    public InetSocketAddress start() throws IOException {
        group = provider.openAsynchronousChannelGroup(options.threads(), new NamedThreadFactory("jdk-nio2"));
        listener = AsynchronousServerSocketChannel.open(group);
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(options.bindAddress(), BACKLOG);
        listener.accept(null, acceptHandler);
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        stopping = true;
        if (listener != null) {
            listener.close();
        }
        if (group != null) {
            group.shutdownNow();
            if (!group.awaitTermination(5, TimeUnit.SECONDS)) {
                System.err.println("jdk-nio2: channel group did not terminate within 5 s");
            }
        }
        System.err.println(errors.summary());
    }

    /** Accepts the next connection and starts echoing on the accepted one. */
    private final class AcceptHandler implements CompletionHandler<AsynchronousSocketChannel, Void> {
        @Override
        public void completed(AsynchronousSocketChannel channel, Void unused) {
            listener.accept(null, this);
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                errors.record(e);
                Nio2Connection.closeChannel(channel, errors);
                return;
            }
            new Nio2Connection(channel, options.delayUs(), errors).readNext();
        }

        @Override
        public void failed(Throwable exc, Void unused) {
            if (stopping && (exc instanceof AsynchronousCloseException || !listener.isOpen())) {
                return; // the listener was closed by stop()
            }
            System.err.println("jdk-nio2: accept failed: " + exc);
            if (listener.isOpen()) {
                listener.accept(null, this);
            }
        }
    }
}
