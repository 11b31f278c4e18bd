package dev.proactor.bench.server.proactor;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.TlsCredentials;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLContext;

/**
 * TLS echo over {@link TlsChannel} ({@code proactor-tls}): the engine, wait strategy and leader mode come from the
 * {@code proactor.*} system properties, so one server name covers every engine. Each connection handshakes, then
 * reads into one 16 KiB buffer and writes it back; the peer's {@code close_notify} is answered with ours.
 */
public final class ProactorTlsEchoServer implements EchoServer {
    /** Command-line name. */
    public static final String NAME = "proactor-tls";

    private static final int BACKLOG = 4096;
    private static final int BUFFER = 16 * 1024;

    private final ServerOptions options;
    private final TlsCredentials credentials;
    private final ConnectionErrors errors = new ConnectionErrors(NAME);
    private Demultiplexor demux;
    private AsynchChannel listener;
    private SSLContext context;
    private volatile boolean closed;

    /**
     * Creates the server, not started.
     *
     * @param options     bind address, threads, busy work per read
     * @param credentials key and certificate
     */
    public ProactorTlsEchoServer(ServerOptions options, TlsCredentials credentials) {
        this.options = options;
        this.credentials = credentials;
    }

    @Override
    public InetSocketAddress start() throws IOException {
        ProactorConfig config = ProactorConfig.fromSystemProperties().toBuilder().threads(options.threads()).build();
        context = credentials.serverContext();
        demux = Demultiplexor.open(config);
        listener = AsynchChannel.openServer(demux, new Listener(), options.bindAddress(), BACKLOG);
        demux.start();
        System.out.println(NAME + ": engine=" + demux.getEngineName());
        listener.accept();
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void stop() {
        closed = true;
        if (listener != null) {
            listener.close();
        }
        if (demux != null) {
            demux.close();
        }
        System.err.println(errors.summary());
    }

    /** Adopts each accepted connection into a {@link Connection} and accepts the next. */
    private final class Listener implements AsynchHandler {
        @Override
        public void onAcceptCompleted(OpAccept op) {
            Throwable error = op.getError();
            if (closed || error instanceof ClosedChannelException || error instanceof AsynchronousCloseException) {
                return;
            }
            try {
                if (error != null) {
                    errors.record(error);
                    return;
                }
                Connection c = new Connection();
                try {
                    c.tls = TlsChannel.adopt(op, TlsCredentials.serverEngine(context), c);
                    c.tls.getTransport().setOption(StandardSocketOptions.TCP_NODELAY, true);
                } catch (IOException e) {
                    errors.record(e);
                    if (c.tls != null) {
                        c.tls.close();
                    }
                    return;
                }
                c.tls.handshake(null);
            } finally {
                listener.accept();
            }
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("listener does not read");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("listener does not write");
        }
    }

    /** One echo connection: read, write back, read again; completions come one at a time. */
    private final class Connection implements TlsHandler {
        private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        private TlsChannel tls;

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            if (!fail(op)) {
                tls.read(buffer, null);
            }
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (fail(op)) {
                return;
            }
            if (op.isEndOfStream()) {
                tls.shutdownOutput(null);
                return;
            }
            BusySpin.spin(options.delayUs());
            buffer.flip();
            tls.write(buffer, null);
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            if (!fail(op)) {
                buffer.clear();
                tls.read(buffer, null);
            }
        }

        @Override
        public void onShutdownCompleted(TlsOp op) {
            tls.close();
        }

        /** Closes the connection and counts the error when {@code op} failed. */
        private boolean fail(TlsOp op) {
            if (op.isSuccess()) {
                return false;
            }
            errors.record(op.getError());
            tls.close();
            return true;
        }
    }
}
