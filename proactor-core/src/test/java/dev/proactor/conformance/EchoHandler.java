package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A server connection that echoes everything, with a deliberately small buffer so data crosses many
 * operations; every other round uses a scattering read and a gathering write over two buffers. Closes at
 * end-of-stream (after its pending write) or on error.
 */
final class EchoHandler implements ConnectionHandler {

    private final ByteBuffer a;
    private final ByteBuffer b;
    private final ByteBuffer[] pair;
    private AsynchChannel channel;
    private boolean scatter;

    EchoHandler(int bufferSize) {
        a = ByteBuffer.allocateDirect(Math.max(1, bufferSize / 2));
        b = ByteBuffer.allocate(Math.max(1, bufferSize - bufferSize / 2)); // heap on purpose: both kinds work
        pair = new ByteBuffer[] {a, b};
    }

    @Override
    public void start(AsynchChannel ch) {
        channel = ch;
        readNext();
    }

    private void readNext() {
        a.clear();
        b.clear();
        scatter = ThreadLocalRandom.current().nextBoolean();
        if (scatter) {
            channel.read(pair);
        } else {
            channel.read(a);
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
        if (!op.isSuccess() || op.isEndOfStream()) {
            channel.close();
            return;
        }
        a.flip();
        b.flip();
        if (scatter) {
            channel.write(pair);
        } else {
            channel.write(a);
        }
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        if (!op.isSuccess()) {
            channel.close();
            return;
        }
        readNext();
    }
}
