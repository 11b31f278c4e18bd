package dev.proactor.bench.server.hsha;

import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The synchronous half for one connection: a queue of received buffers drained by at most
 * one worker at a time (so the echo keeps the byte order), each written back completely.
 */
final class HshaConnection implements Runnable {
    private final SocketChannel channel;
    private final Executor workers;
    private final BufferPool pool;
    private final int delayUs;
    private final ConnectionErrors errors;
    private final Queue<ByteBuffer> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    HshaConnection(SocketChannel channel, Executor workers, BufferPool pool, int delayUs, ConnectionErrors errors) {
        this.channel = channel;
        this.workers = workers;
        this.pool = pool;
        this.delayUs = delayUs;
        this.errors = errors;
    }

    SocketChannel channel() {
        return channel;
    }

    /** Called by the reader thread with bytes just read. */
    void enqueue(ByteBuffer data) {
        inbox.add(data);
        if (scheduled.compareAndSet(false, true)) {
            workers.execute(this);
        }
    }

    /** Worker: drain the inbox, then release the connection (re-checking for late arrivals). */
    @Override
    public void run() {
        for (;;) {
            ByteBuffer data = inbox.poll();
            if (data == null) {
                scheduled.set(false);
                if (inbox.isEmpty() || !scheduled.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            try {
                if (channel.isOpen()) {
                    BusySpin.spin(delayUs);
                    WriteWaiter.writeFully(channel, data);
                }
            } catch (IOException e) {
                errors.record(e);
                closeChannel();
            } finally {
                pool.give(data);
            }
        }
    }

    void close(SelectionKey key) {
        key.cancel();
        closeChannel();
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            errors.record(e);
        }
    }
}
