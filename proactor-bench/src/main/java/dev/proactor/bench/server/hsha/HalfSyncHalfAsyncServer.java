package dev.proactor.bench.server.hsha;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.NamedThreadFactory;
import dev.proactor.bench.server.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Half-sync/half-async: one selector thread (the asynchronous half) accepts and reads; each
 * read is queued to a pool of T worker threads (the synchronous half) that do the work and
 * write the bytes back with blocking semantics. Per-connection order is kept by running at
 * most one worker per connection at a time.
 */
public final class HalfSyncHalfAsyncServer implements EchoServer {
    private static final int BACKLOG = 4096;

    private final ServerOptions options;
    private final ConnectionErrors errors = new ConnectionErrors("hsha");
    private ServerSocketChannel listener;
    private ExecutorService workers;
    private HshaReader reader;

    /**
     * Creates the server.
     *
     * @param options server options; {@code threads} is the worker pool size
     */
    public HalfSyncHalfAsyncServer(ServerOptions options) {
        this.options = options;
    }

    @Override
    public InetSocketAddress start() throws IOException {
        workers = Executors.newFixedThreadPool(options.threads(), new NamedThreadFactory("hsha-worker"));
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(options.bindAddress(), BACKLOG);
        listener.configureBlocking(false);
        reader = new HshaReader(listener, workers, new BufferPool(), options.delayUs(), errors);
        reader.start();
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        if (reader != null) {
            reader.shutdown();
            reader.awaitStopped();
        }
        if (workers != null) {
            workers.shutdownNow();
            if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                System.err.println("hsha: workers did not stop within 5 s");
            }
        }
        if (listener != null) {
            listener.close();
        }
        System.err.println(errors.summary());
    }
}
