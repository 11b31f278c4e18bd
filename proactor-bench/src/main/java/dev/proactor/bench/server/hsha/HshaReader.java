package dev.proactor.bench.server.hsha;

import dev.proactor.bench.server.ConnectionErrors;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;

/** The asynchronous half: one selector thread that accepts, reads and queues the bytes. */
final class HshaReader implements Runnable {
    private final Thread thread = new Thread(this, "hsha-reader");
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final Executor workers;
    private final BufferPool pool;
    private final int delayUs;
    private final ConnectionErrors errors;
    private volatile boolean running = true;

    HshaReader(ServerSocketChannel listener, Executor workers, BufferPool pool, int delayUs,
               ConnectionErrors errors) throws IOException {
        this.selector = Selector.open();
        this.listener = listener;
        this.workers = workers;
        this.pool = pool;
        this.delayUs = delayUs;
        this.errors = errors;
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    void start() {
        thread.start();
    }

    void shutdown() {
        running = false;
        selector.wakeup();
    }

    void awaitStopped() throws InterruptedException {
        thread.join();
    }

    @Override
    public void run() {
        try {
            while (running) {
                selector.select(this::onReady);
            }
        } catch (IOException e) {
            System.err.println("hsha-reader: selector failed: " + e);
        } finally {
            closeAll();
        }
    }

    private void onReady(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            acceptAll();
        } else if (key.isReadable()) {
            read(key, (HshaConnection) key.attachment());
        }
    }

    private void acceptAll() {
        try {
            SocketChannel ch;
            while ((ch = listener.accept()) != null) {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                HshaConnection conn = new HshaConnection(ch, workers, pool, delayUs, errors);
                ch.register(selector, SelectionKey.OP_READ, conn);
            }
        } catch (ClosedChannelException e) {
            errors.record(e);
        } catch (IOException e) {
            System.err.println("hsha-reader: accept failed: " + e);
        }
    }

    private void read(SelectionKey key, HshaConnection conn) {
        ByteBuffer buf = pool.take();
        int n;
        try {
            n = conn.channel().read(buf);
        } catch (IOException e) {
            pool.give(buf);
            errors.record(e);
            conn.close(key);
            return;
        }
        if (n <= 0) {
            pool.give(buf);
            if (n < 0) {
                conn.close(key);
            }
            return;
        }
        buf.flip();
        conn.enqueue(buf);
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof HshaConnection) {
                ((HshaConnection) key.attachment()).close(key);
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            System.err.println("hsha-reader: closing selector failed: " + e);
        }
    }
}
