package dev.proactor.nio;

import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The nio engine's state of one channel: the JDK channel, its selection key, and the pending request of each
 * direction. Every field that changes is guarded by synchronizing on this object, which is what serializes
 * the starting thread, the leader doing I/O on readiness, and cancel/close.
 */
final class NioChannel implements EngineChannel {

    final SelectableChannel channel;
    final SelectionKey key;
    private final NioSelector selector;

    /** Pending read, accept or receive, or null. Guarded by this. */
    IoRequest input;
    /** Pending write, connect, send or transmit, or null. Guarded by this. */
    IoRequest output;
    /** Guarded by this. */
    boolean closed;
    /**
     * This channel's last stream read found the receive queue empty (it read nothing, or fewer bytes than it asked
     * for), and no readiness of its input has been seen since. With input interest registered ({@link
     * #watchesInput()}), a read started now (in practice from the callback of the read that drained the socket, or
     * of the write that answered it, as NIO.2 programs do) would only make a system call that finds nothing, so it
     * waits for readiness instead, as a selector loop reads only on readiness. Always safe: the selector is
     * level-triggered, so bytes, an end of stream or an error already there are reported by the next select. Only
     * readiness clears it, not a select that found nothing for this channel: that tells nothing about bytes that
     * came after it, and counting selects made every read after the pool's fairness poll (one per round of
     * completions) try in vain. Guarded by this.
     */
    boolean inputDrained;
    /**
     * Buffer of a file transmission that cannot use {@code transferTo}: file bytes read but not yet sent
     * (position..limit). Made at the first such transmission of this channel, then reused. Guarded by this.
     */
    private ByteBuffer transmitBuffer;

    NioChannel(SelectableChannel channel, SelectionKey key, NioSelector selector) {
        this.channel = channel;
        this.key = key;
        this.selector = selector;
    }

    /**
     * Adds interest in {@code ops}; the caller holds the lock and has checked {@link #closed}.
     *
     * @return whether the interest set changed (a blocked select() must then be woken to see it)
     */
    boolean addInterest(int ops) {
        return (key.interestOpsOr(ops) & ops) != ops;
    }

    /**
     * Whether input interest is registered, so that the selector reports the input's readiness: without it, no
     * select says whether bytes came since a drain, and waiting would also cost a wake-up of the leader to register
     * it. A cancelled key watches nothing. Lock held.
     */
    boolean watchesInput() {
        try {
            return (key.interestOps() & SelectionKey.OP_READ) != 0;
        } catch (CancelledKeyException e) {
            return false; // closed meanwhile: the try at start reports it
        }
    }

    /** Removes interest in {@code ops}; a key cancelled by a concurrent close is fine. Lock held. */
    void removeInterest(int ops) {
        try {
            key.interestOpsAnd(~ops);
        } catch (CancelledKeyException e) {
            // The channel is being closed: no interest is left to remove.
        }
    }

    /** The buffer of a transmission copying through Java, made once per channel. Lock held. */
    ByteBuffer transmitBuffer() {
        if (transmitBuffer == null) {
            transmitBuffer = ByteBuffer.allocateDirect(NioTransmit.BUFFER_SIZE);
        }
        return transmitBuffer;
    }

    @Override
    public SocketAddress localAddress() throws IOException {
        return channel instanceof NetworkChannel nc ? nc.getLocalAddress() : null;
    }

    @Override
    public SocketAddress remoteAddress() throws IOException {
        if (channel instanceof SocketChannel sc) {
            return sc.getRemoteAddress();
        }
        return channel instanceof DatagramChannel dc ? dc.getRemoteAddress() : null;
    }

    @Override
    public <T> void setOption(SocketOption<T> name, T value) throws IOException {
        if (!(channel instanceof NetworkChannel nc)) {
            throw new UnsupportedOperationException("socket option " + name + " on " + channel);
        }
        nc.setOption(name, value);
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        if (!(channel instanceof NetworkChannel nc)) {
            throw new UnsupportedOperationException("socket option " + name + " on " + channel);
        }
        return nc.getOption(name);
    }

    @Override
    public void shutdownOutput() throws IOException {
        if (!(channel instanceof SocketChannel sc)) {
            throw new UnsupportedOperationException("shutdownOutput needs a connected stream socket");
        }
        sc.shutdownOutput();
    }

    @Override
    public void shutdownInput() throws IOException {
        if (!(channel instanceof SocketChannel sc)) {
            throw new UnsupportedOperationException("shutdownInput needs a connected stream socket");
        }
        sc.shutdownInput();
    }

    /**
     * Marks the channel closed, cancels its key, closes the JDK channel and returns once the socket is released
     * (a listener's port is free, a connection's descriptor closed). Pending requests stay in their slots for the
     * core's cancel. Any thread, a handler's included (see {@link NioSelector#awaitDeregistration}).
     *
     * <p>The JDK releases the descriptor of a registered channel only when a select deregisters its cancelled key,
     * and no thread is in an I/O call on it then, so the number is never reused under a pending operation; waiting
     * for that deregistration here is what makes the release happen before this returns.
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        key.cancel();
        channel.close();
        selector.awaitDeregistration(key);
    }

    @Override
    public synchronized boolean isClosed() {
        return closed || !channel.isOpen();
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}
