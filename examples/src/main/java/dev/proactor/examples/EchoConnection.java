package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.toolkit.Service;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;

/**
 * The seed's echo protocol for one connection: read, write back what was read, read again. One buffer per
 * connection (direct, or on the Java heap as many NIO.2 and servlet programs keep theirs), reused; nothing is
 * allocated per message. Closes on end-of-stream or error, and gives its buffer back to the service's
 * {@link EchoBuffers} then (it has one operation at a time: none holds the buffer in the callback of the last).
 */
final class EchoConnection implements Service {

    private final EchoBuffers buffers;
    private final ByteBuffer buffer;
    private final int delayMicros;
    private final EchoServer server;
    private AsynchChannel channel;

    EchoConnection(EchoBuffers buffers, int delayMicros, EchoServer server) {
        this.server = server;
        this.buffers = buffers;
        this.buffer = buffers.take();
        this.delayMicros = delayMicros;
    }

    /** Binds the connection's channel and starts the first read. */
    @Override
    public void start(AsynchChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true); // as the baselines: no Nagle delay on echoes
        this.channel = ch;
        ch.whenClosed(() -> server.closed(ch.getInputStatistics().bytes(), ch.getOutputStatistics().bytes()));
        ch.read(buffer);
    }

    @Override
    public void onReadCompleted(OpRead op) {
        if (!op.isSuccess() || op.isEndOfStream()) {
            end();
            return;
        }
        BusyWork.spin(delayMicros);
        buffer.flip();
        channel.write(buffer);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        if (!op.isSuccess()) {
            end();
            return;
        }
        buffer.clear();
        channel.read(buffer);
    }

    /** The last operation ended: the buffer goes back (before the close, whose listener counts the connection). */
    private void end() {
        buffers.giveBack(buffer);
        channel.close();
    }
}
