package dev.proactor.bench.server.reactor;

import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection of the reactor: non-blocking read into the loop's buffer, echo at once;
 * only a partial write keeps the rest here and switches the interest to OP_WRITE.
 */
final class ReactorConnection {
    private final SocketChannel channel;
    private final int delayUs;
    private final ConnectionErrors errors;
    private ByteBuffer pending;

    ReactorConnection(SocketChannel channel, int delayUs, ConnectionErrors errors) {
        this.channel = channel;
        this.delayUs = delayUs;
        this.errors = errors;
    }

    void onReady(SelectionKey key, ByteBuffer readBuffer) {
        try {
            if (key.isReadable()) {
                read(key, readBuffer);
            } else if (key.isWritable()) {
                flushPending(key);
            }
        } catch (IOException e) {
            errors.record(e);
            close(key);
        }
    }

    private void read(SelectionKey key, ByteBuffer buf) throws IOException {
        buf.clear();
        int n = channel.read(buf);
        if (n < 0) {
            close(key);
            return;
        }
        if (n == 0) {
            return;
        }
        BusySpin.spin(delayUs);
        buf.flip();
        channel.write(buf);
        if (buf.hasRemaining()) {
            keepRemainder(buf);
            key.interestOps(SelectionKey.OP_WRITE);
        }
    }

    private void keepRemainder(ByteBuffer buf) {
        if (pending == null || pending.capacity() < buf.remaining()) {
            pending = ByteBuffer.allocateDirect(Math.max(buf.remaining(), 4096));
        }
        pending.clear();
        pending.put(buf);
        pending.flip();
    }

    private void flushPending(SelectionKey key) throws IOException {
        channel.write(pending);
        if (!pending.hasRemaining()) {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    void close(SelectionKey key) {
        key.cancel();
        try {
            channel.close();
        } catch (IOException e) {
            errors.record(e);
        }
    }
}
