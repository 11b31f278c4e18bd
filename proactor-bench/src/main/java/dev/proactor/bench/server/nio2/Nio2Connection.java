package dev.proactor.bench.server.nio2;

import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;

/** One echo connection: read, (spin), write everything, read again. */
final class Nio2Connection {
    private static final int BUFFER_SIZE = 16 * 1024;

    private final AsynchronousSocketChannel channel;
    private final int delayUs;
    private final ConnectionErrors errors;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final CompletionHandler<Integer, Void> onRead = new OnRead();
    private final CompletionHandler<Integer, Void> onWrite = new OnWrite();

    Nio2Connection(AsynchronousSocketChannel channel, int delayUs, ConnectionErrors errors) {
        this.channel = channel;
        this.delayUs = delayUs;
        this.errors = errors;
    }

    void readNext() {
        buffer.clear();
        channel.read(buffer, null, onRead);
    }

    private void fail(Throwable exc) {
        if (channel.isOpen()) {
            errors.record(exc);
        }
        closeChannel(channel, errors);
    }

    static void closeChannel(AsynchronousSocketChannel channel, ConnectionErrors errors) {
        try {
            channel.close();
        } catch (IOException e) {
            errors.record(e);
        }
    }

    private final class OnRead implements CompletionHandler<Integer, Void> {
        @Override
        public void completed(Integer n, Void unused) {
            if (n < 0) {
                closeChannel(channel, errors);
                return;
            }
            BusySpin.spin(delayUs);
            buffer.flip();
            channel.write(buffer, null, onWrite);
        }

        @Override
        public void failed(Throwable exc, Void unused) {
            fail(exc);
        }
    }

    private final class OnWrite implements CompletionHandler<Integer, Void> {
        @Override
        public void completed(Integer n, Void unused) {
            if (buffer.hasRemaining()) {
                channel.write(buffer, null, this);
            } else {
                readNext();
            }
        }

        @Override
        public void failed(Throwable exc, Void unused) {
            fail(exc);
        }
    }
}
