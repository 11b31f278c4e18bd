package dev.proactor.bench.server.hsha;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * Blocking writes on a non-blocking channel: when the socket buffer is full, the worker
 * waits on its own private selector for OP_WRITE (the channel stays registered for reads
 * with the reader's selector).
 */
final class WriteWaiter {
    private static final ThreadLocal<Selector> SELECTORS = ThreadLocal.withInitial(WriteWaiter::openSelector);

    private WriteWaiter() {
    }

    static void writeFully(SocketChannel channel, ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            if (channel.write(data) == 0) {
                awaitWritable(channel);
            }
        }
    }

    private static void awaitWritable(SocketChannel channel) throws IOException {
        Selector selector = SELECTORS.get();
        if (channel.keyFor(selector) == null) {
            channel.register(selector, SelectionKey.OP_WRITE);
        }
        selector.select(100);
        selector.selectedKeys().clear();
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("worker interrupted while waiting to write");
        }
    }

    private static Selector openSelector() {
        try {
            return Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a worker selector", e);
        }
    }
}
