package dev.proactor;

import dev.proactor.spi.OpKind;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * A completed datagram receive. On success one datagram was stored in the buffer (its position advanced by
 * {@link #getBytesCompleted()}, which is 0 for an empty datagram) and {@link #getSourceAddress()} tells who sent
 * it.
 *
 * <p><b>Truncation.</b> A datagram larger than the space remaining in the buffer is truncated: the bytes that
 * fit are stored, the excess is discarded (it is not delivered by a later receive) and nothing reports that it
 * happened (the JDK's {@code DatagramChannel.receive} does not). Receive into a buffer of at least the largest
 * datagram the protocol allows (65,507 bytes for UDP over IPv4) when that matters.
 */
public final class OpReceive extends ChannelOp {

    OpReceive(AsynchChannel channel) {
        super(channel, true);
    }

    @Override
    public OpKind getKind() {
        return OpKind.RECEIVE;
    }

    /** The buffer received into. */
    public ByteBuffer getBuffer() {
        return request.firstBuffer();
    }

    /** The sender of the datagram, or {@code null} on error. */
    public SocketAddress getSourceAddress() {
        return request.peer();
    }
}
