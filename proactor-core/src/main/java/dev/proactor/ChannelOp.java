package dev.proactor;

import dev.proactor.internal.ChannelCore;
import dev.proactor.internal.ChannelSlot;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;

/**
 * The result of an I/O operation on an {@link AsynchChannel}: what was asked and what happened.
 *
 * <p>Read inside the handler's callback only; the object is reused afterwards.
 */
public abstract sealed class ChannelOp extends Op permits BufferOp, OpAccept, OpConnect, OpReceive, OpSend,
        OpTransmit {

    /** This operation's state (channel, direction, use, timeout, abort reason), which the machinery owns. */
    final ChannelSlot slot;
    /** What was asked and what happened: {@link #slot}'s request. */
    final IoRequest request;

    ChannelOp(AsynchChannel channel, boolean input) {
        this.slot = new ChannelSlot(this, channel.core, input);
        this.request = slot.request();
    }

    /**
     * A new operation object of {@code kind} on {@code channel}, as its slot (a direction's free list was empty:
     * only until the channel has warmed up).
     */
    static ChannelSlot newSlot(AsynchChannel channel, OpKind kind) {
        ChannelOp op = switch (kind) {
            case READ, READ_FILE -> new OpRead(channel);
            case WRITE, WRITE_FILE -> new OpWrite(channel);
            case ACCEPT -> new OpAccept(channel);
            case CONNECT -> new OpConnect(channel);
            case RECEIVE -> new OpReceive(channel);
            case SEND -> new OpSend(channel);
            case TRANSMIT_FILE -> new OpTransmit(channel);
        };
        return op.slot;
    }

    @Override
    ChannelSlot slot() {
        return slot;
    }

    /** The kind of operation. */
    public abstract OpKind getKind();

    /** The channel the operation ran on. */
    public AsynchChannel getChannel() {
        return slot.channel();
    }

    /**
     * Bytes moved: for a read, the bytes read or -1 at end-of-stream; for a write, the bytes written (all of
     * them on success, those before the error otherwise); for a receive, the bytes of the datagram stored in
     * the buffer; for a send, the datagram's size; for a transmit, the header, file and trailer bytes sent; 0
     * for accept and connect.
     */
    public long getBytesCompleted() {
        return request.bytes();
    }

    /** The error the operation ended with, or {@code null} on success. */
    public Throwable getError() {
        return request.error();
    }

    /** Whether the operation ended without error. */
    public boolean isSuccess() {
        return request.error() == null;
    }

    @Override
    public String toString() {
        return getKind() + "[" + getState() + ", bytes=" + request.bytes() + ", error=" + request.error() + "]";
    }
}
