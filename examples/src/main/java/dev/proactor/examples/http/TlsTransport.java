package dev.proactor.examples.http;

import dev.proactor.AsynchChannel;
import dev.proactor.OpAccept;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TLS connection ({@link TlsChannel}, server mode, ALPN {@code http/1.1}). The handshake starts at once; the
 * connection's first read waits for it and fails with its error. A file body cannot go zero-copy through
 * encryption: each chunk is read from the file (a positional read, normally from the page cache, as small
 * bodies are) into a buffer of the connection and written behind the head.
 */
final class TlsTransport implements HttpTransport, TlsHandler {

    private static final Logger LOG = LoggerFactory.getLogger(TlsTransport.class);
    private static final String[] ALPN = {"http/1.1"};

    private final HttpConnection connection;
    private final TlsChannel tls;
    private final ByteBuffer[] headAndChunk = new ByteBuffer[2];
    private ByteBuffer chunk;
    private long transmitCount;

    /** Adopts the accepted connection (inside the acceptor's callback) and starts the handshake. */
    TlsTransport(OpAccept accepted, SSLContext context, HttpConnection connection) throws IOException {
        this.connection = connection;
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters p = engine.getSSLParameters();
        p.setApplicationProtocols(ALPN);
        engine.setSSLParameters(p);
        this.tls = TlsChannel.adopt(accepted, engine, this);
        tls.handshake(null);
    }

    /** The socket under TLS, for options. */
    AsynchChannel socket() {
        return tls.getTransport();
    }

    @Override
    public void read(ByteBuffer dst) {
        tls.read(dst, null);
    }

    @Override
    public void write(ByteBuffer src) {
        tls.write(src, null);
    }

    @Override
    public void transmitFile(FileChannel file, long position, long count, ByteBuffer head) {
        int n = (int) count; // at most the send chunk, well below 2 GiB
        if (chunk == null || chunk.capacity() < n) {
            chunk = ByteBuffer.allocate(n);
        }
        chunk.clear().limit(n);
        try {
            while (chunk.hasRemaining()) {
                if (file.read(chunk, position + chunk.position()) < 0) {
                    throw new EOFException("file ended " + chunk.position() + " bytes into a chunk of " + n);
                }
            }
        } catch (IOException e) {
            connection.transmitCompleted(e, 0, count);
            return;
        }
        chunk.flip();
        transmitCount = count;
        headAndChunk[0] = head == null ? ByteBuffer.allocate(0) : head;
        headAndChunk[1] = chunk;
        tls.write(headAndChunk, 0, 2, null);
    }

    @Override
    public void shutdownOutput() {
        tls.shutdownOutput(null); // close_notify after the response
    }

    @Override
    public void close() {
        tls.close();
    }

    @Override
    public void onHandshakeCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            // The pending read (or the 503 write) fails with the same error and closes the connection.
            LOG.debug("{}: TLS handshake failed", tls, op.getError());
        }
    }

    @Override
    public void onReadCompleted(TlsOp op) {
        connection.readCompleted(op.getError(), op.isEndOfStream());
    }

    @Override
    public void onWriteCompleted(TlsOp op) {
        if (op.getBuffers() == headAndChunk) {
            headAndChunk[0] = null;
            connection.transmitCompleted(op.getError(), op.getBytesCompleted(), transmitCount);
        } else {
            connection.writeCompleted(op.getError());
        }
    }

    @Override
    public void onShutdownCompleted(TlsOp op) {
        if (!op.isSuccess()) {
            LOG.debug("{}: sending close_notify failed", tls, op.getError());
        }
    }

    @Override
    public String toString() {
        return tls.toString();
    }
}
