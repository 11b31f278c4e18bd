package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP echo service: every datagram received is sent back, unchanged, to its sender.
 *
 * <p>The socket keeps {@code slots} receives pending, each with its own buffer (large enough for any UDP
 * datagram, so nothing is truncated). A slot cycles receive, then send of the same buffer to the datagram's
 * source, then receive again; the slot travels as the operations' attachment. Several slots let receiving
 * continue while echoes are being sent. Nothing is allocated per datagram by this class (the JDK allocates the
 * source address).
 */
public final class UdpEchoServer implements AsynchHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UdpEchoServer.class);

    /** Largest UDP payload over IPv4 (65,535 minus the IP and UDP headers). */
    static final int MAX_DATAGRAM = 65_507;

    private final Demultiplexor demultiplexor;
    private final AsynchChannel socket;
    private final AtomicLong echoed = new AtomicLong();
    private volatile boolean closed;

    /** One receive/send buffer and the sender of the datagram in it. */
    private static final class Slot {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
        SocketAddress source;
    }

    /**
     * Opens the demultiplexor, binds, starts the pool and {@code slots} receives.
     *
     * @throws java.net.BindException if the address is in use
     */
    public UdpEchoServer(ProactorConfig config, InetSocketAddress bind, int slots) throws IOException {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1: " + slots);
        }
        this.demultiplexor = Demultiplexor.open(config);
        try {
            this.socket = AsynchChannel.openDatagram(demultiplexor, this, bind);
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        demultiplexor.start();
        for (int i = 0; i < slots; i++) {
            Slot slot = new Slot();
            socket.receive(slot.buffer, slot);
        }
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) socket.getLocalAddress();
    }

    /** The demultiplexor serving the socket. */
    public Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    /** Datagrams echoed so far. */
    public long echoed() {
        return echoed.get();
    }

    @Override
    public void onReceiveCompleted(OpReceive op) {
        Slot slot = (Slot) op.getAttachment();
        Throwable error = op.getError();
        if (error != null) {
            if (!closed && !(error instanceof ClosedChannelException)
                    && !(error instanceof AsynchronousCloseException)) {
                LOG.warn("receive failed; receiving again", error);
                slot.buffer.clear();
                socket.receive(slot.buffer, slot);
            }
            return;
        }
        slot.source = op.getSourceAddress();
        slot.buffer.flip();
        socket.send(slot.buffer, slot.source, slot);
    }

    @Override
    public void onSendCompleted(OpSend op) {
        Slot slot = (Slot) op.getAttachment();
        Throwable error = op.getError();
        if (error instanceof ClosedChannelException || error instanceof AsynchronousCloseException || closed) {
            return;
        }
        if (error != null) {
            // One unreachable or misbehaving sender must not stop the service: drop its echo.
            LOG.debug("echo to {} failed", slot.source, error);
        } else {
            echoed.incrementAndGet();
        }
        slot.source = null;
        slot.buffer.clear();
        socket.receive(slot.buffer, slot);
    }

    @Override
    public void onReadCompleted(OpRead op) {
        throw new IllegalStateException("a datagram socket does not read");
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new IllegalStateException("a datagram socket does not write");
    }

    @Override
    public void close() {
        closed = true;
        socket.close();
        demultiplexor.close();
    }
}
