package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.AsynchronousCloseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The echo service: an acceptor that keeps one accept pending and starts an {@link EchoConnection} for each
 * accepted connection. The engine, wait strategy and leader mode come from the system properties.
 */
public final class EchoServer implements AsynchHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EchoServer.class);

    private final Demultiplexor demultiplexor;
    private final AsynchChannel listener;
    private final int bufferSize;
    private final int delayMicros;

    /**
     * Opens the demultiplexor, binds, starts the pool and the first accept.
     *
     * @throws java.net.BindException if the address is in use
     */
    public EchoServer(ProactorConfig config, InetSocketAddress bind, int bufferSize, int delayMicros)
            throws IOException {
        this.bufferSize = bufferSize;
        this.delayMicros = delayMicros;
        this.demultiplexor = Demultiplexor.open(config);
        try {
            this.listener = AsynchChannel.openServer(demultiplexor, this, bind, 1024);
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        demultiplexor.start();
        listener.accept();
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    public Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    @Override
    public void onAcceptCompleted(OpAccept op) throws IOException {
        Throwable error = op.getError();
        if (error instanceof ClosedChannelException || error instanceof AsynchronousCloseException) {
            return; // shutting down
        }
        if (error != null) {
            LOG.warn("accept failed, accepting again", error);
        } else {
            EchoConnection conn = new EchoConnection(bufferSize, delayMicros);
            AsynchChannel ch = op.adopt(conn);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true); // as the baselines: no Nagle delay on echoes
            conn.start(ch);
        }
        listener.accept();
    }

    @Override
    public void onReadCompleted(OpRead op) {
        throw new IllegalStateException("the listener does not read");
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new IllegalStateException("the listener does not write");
    }

    @Override
    public void close() {
        listener.close();
        demultiplexor.close();
    }
}
