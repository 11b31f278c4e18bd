package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;

/**
 * A TLS echo server for tests: each accepted connection handshakes, echoes plaintext through a small buffer
 * (so records are split across reads), answers the client's close_notify with its own, and reports how each
 * connection ended: "eof" (close_notify received), or the error.
 */
final class TlsEchoServer implements AsynchHandler, AutoCloseable {

    final AsynchChannel listener;
    final BlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
    final BlockingQueue<String> protocols = new LinkedBlockingQueue<>();
    /** The plaintext bytes of every read that completed with data, in order. */
    final BlockingQueue<Long> readSizes = new LinkedBlockingQueue<>();
    private final Supplier<SSLEngine> engines;

    TlsEchoServer(Demultiplexor demux, Supplier<SSLEngine> engines) throws IOException {
        this.engines = engines;
        listener = AsynchChannel.openServer(demux, this, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                0);
        listener.accept();
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void onAcceptCompleted(OpAccept op) throws Exception {
        if (op.isSuccess()) {
            TlsChannel tls = TlsChannel.adopt(op, engines.get(), new Echo());
            tls.handshake(null);
            listener.accept();
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
    }

    @Override
    public void close() {
        listener.close();
    }

    private final class Echo implements TlsHandler {
        private final ByteBuffer buf = ByteBuffer.allocate(1000);

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                outcomes.add(op.getError());
                op.getChannel().close();
                return;
            }
            protocols.add(op.getChannel().getSession().getProtocol() + " " + op.getChannel().getApplicationProtocol());
            op.getChannel().read(buf, null);
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                outcomes.add(op.getError());
                op.getChannel().close();
            } else if (op.isEndOfStream()) {
                op.getChannel().shutdownOutput(null);
            } else {
                readSizes.add(op.getBytesCompleted());
                buf.flip();
                op.getChannel().write(buf, null);
            }
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                outcomes.add(op.getError());
                op.getChannel().close();
                return;
            }
            buf.clear();
            op.getChannel().read(buf, null);
        }

        @Override
        public void onShutdownCompleted(TlsOp op) {
            outcomes.add(op.isSuccess() ? "eof" : op.getError());
            op.getChannel().close();
        }
    }
}
