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
 * allocated per message. Closes on end-of-stream or error.
 */
final class EchoConnection implements Service {

    private final ByteBuffer buffer;
    private final int delayMicros;
    private final EchoServer server;
    private AsynchChannel channel;

    EchoConnection(int bufferSize, boolean heapBuffer, int delayMicros, EchoServer server) {
        this.server = server;
        this.buffer = heapBuffer ? ByteBuffer.allocate(bufferSize) : ByteBuffer.allocateDirect(bufferSize);
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
            channel.close();
            return;
        }
        BusyWork.spin(delayMicros);
        buffer.flip();
        channel.write(buffer);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        if (!op.isSuccess()) {
            channel.close();
            return;
        }
        buffer.clear();
        channel.read(buffer);
    }
}
