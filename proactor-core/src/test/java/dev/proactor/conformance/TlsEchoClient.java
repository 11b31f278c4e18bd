package dev.proactor.conformance;

import dev.proactor.Demultiplexor;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLEngine;

/**
 * A TLS client for tests on {@link TlsChannel#connect}: after the handshake it writes {@code payload} in writes
 * of {@code writeSize}, reads the echo until the server's close_notify (having sent its own after the last
 * write), and completes {@link #result} with the bytes received, or exceptionally with the first error.
 */
final class TlsEchoClient implements TlsHandler {

    final CompletableFuture<TlsChannel> handshake = new CompletableFuture<>();
    final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final byte[] payload;
    private final int writeSize;
    private final ByteBuffer in = ByteBuffer.allocate(7000);
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private int written;
    final TlsChannel channel;

    TlsEchoClient(Demultiplexor demux, SocketAddress server, SSLEngine engine, byte[] payload, int writeSize)
            throws IOException {
        this.payload = payload;
        this.writeSize = writeSize;
        channel = TlsChannel.connect(demux, server, engine, this, null);
    }

    @Override
    public void onHandshakeCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            handshake.completeExceptionally(op.getError());
            result.completeExceptionally(op.getError());
            op.getChannel().close();
            return;
        }
        handshake.complete(op.getChannel());
        op.getChannel().read(in, null);
        writeNext(op.getChannel());
    }

    private void writeNext(TlsChannel ch) {
        if (written == payload.length) {
            ch.shutdownOutput(null);
            return;
        }
        int n = Math.min(writeSize, payload.length - written);
        // Two buffers per write: the gathering path.
        int half = n / 2;
        ByteBuffer[] srcs = {ByteBuffer.wrap(payload, written, half), ByteBuffer.wrap(payload, written + half,
                n - half)};
        written += n;
        ch.write(srcs, 0, 2, null);
    }

    @Override
    public void onWriteCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            fail(op);
            return;
        }
        writeNext(op.getChannel());
    }

    @Override
    public void onShutdownCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            fail(op);
        }
    }

    @Override
    public void onReadCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            fail(op);
        } else if (op.isEndOfStream()) {
            synchronized (received) {
                result.complete(received.toByteArray());
            }
            // The shutdown may still wait for its socket write to be reported although the server, having
            // received our close_notify, answered: closing now fails it with AsynchronousCloseException, after
            // the result is in.
            op.getChannel().close();
        } else {
            in.flip();
            synchronized (received) {
                received.write(in.array(), 0, in.limit());
            }
            in.clear();
            op.getChannel().read(in, null);
        }
    }

    private void fail(TlsOp op) {
        result.completeExceptionally(op.getError());
        op.getChannel().close();
    }
}
