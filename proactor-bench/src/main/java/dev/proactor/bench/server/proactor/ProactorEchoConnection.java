package dev.proactor.bench.server.proactor;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.bench.server.BusySpin;
import dev.proactor.toolkit.Service;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;

/**
 * The echo protocol for one connection of {@link ProactorEchoService}: read, spin the row's busy work, write back
 * what was read, read again. One direct buffer per connection, reused: nothing is allocated per message. Closes on
 * end-of-stream or error. Callbacks run on demultiplexor threads, one at a time per connection.
 */
final class ProactorEchoConnection implements Service {

    private final ByteBuffer buffer;
    private final int delayMicros;
    private AsynchChannel channel;

    ProactorEchoConnection(int bufferSize, int delayMicros) {
        this.buffer = ByteBuffer.allocateDirect(bufferSize);
        this.delayMicros = delayMicros;
    }

    /** Binds the connection's channel and starts the first read. */
    @Override
    public void start(AsynchChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true); // as the baselines: no Nagle delay on echoes
        this.channel = ch;
        ch.read(buffer);
    }

    @Override
    public void onReadCompleted(OpRead op) {
        if (!op.isSuccess() || op.isEndOfStream()) {
            channel.close();
            return;
        }
        BusySpin.spin(delayMicros);
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
