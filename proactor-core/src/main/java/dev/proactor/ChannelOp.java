package dev.proactor;

import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;

/**
 * The result of an I/O operation on an {@link AsynchChannel}: what was asked and what happened.
 *
 * <p>Read inside the handler's callback only; the object is reused afterwards.
 */
public abstract sealed class ChannelOp extends Op permits BufferOp, OpAccept, OpConnect, OpReceive, OpSend,
        OpTransmit {

    final AsynchChannel channel;
    final IoRequest request;
    final ChannelDirection direction;
    /** Link in the channel's free list of this kind. */
    ChannelOp nextFree;

    ChannelOp(AsynchChannel channel, ChannelDirection direction) {
        this.channel = channel;
        this.direction = direction;
        this.request = new IoRequest(this);
    }

    /** The kind of operation. */
    public abstract OpKind getKind();

    /** The channel the operation ran on. */
    public AsynchChannel getChannel() {
        return channel;
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
    void dispatch() throws Exception {
        channel.dispatch(this);
    }

    @Override
    void onHandlerFailure(Throwable failure) {
        channel.onHandlerFailure(this, failure);
    }

    @Override
    void afterDispatch() {
        channel.afterDispatch(this);
    }

    @Override
    public String toString() {
        return getKind() + "[" + state + ", bytes=" + request.bytes() + ", error=" + request.error() + "]";
    }
}
