package dev.proactor;

import dev.proactor.spi.OpKind;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * A completed datagram send. On success the whole datagram (every byte remaining in the buffer when the send
 * started) was handed to the network in one piece, and {@link #getBytesCompleted()} is its size; a datagram is
 * never sent in part. Delivery is what the protocol gives: UDP may lose it.
 */
public final class OpSend extends ChannelOp {

    OpSend(AsynchChannel channel) {
        super(channel, false);
    }

    @Override
    public OpKind getKind() {
        return OpKind.SEND;
    }

    /** The buffer sent from. */
    public ByteBuffer getBuffer() {
        return request.firstBuffer();
    }

    /**
     * The address the datagram was sent to: the target given to
     * {@link AsynchChannel#send(ByteBuffer, SocketAddress, Object)}, or for a {@code null} target the connected
     * peer ({@code null} if the send failed before the peer was known).
     */
    public SocketAddress getTargetAddress() {
        SocketAddress target = request.address();
        return target != null ? target : request.peer();
    }
}
