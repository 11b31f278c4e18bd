package dev.proactor;

import dev.proactor.spi.OpKind;
import java.net.SocketAddress;

/** A completed connect: the channel is connected, or {@link #getError()} says why not. */
public final class OpConnect extends ChannelOp {

    OpConnect(AsynchChannel channel) {
        super(channel, false);
    }

    @Override
    public OpKind getKind() {
        return OpKind.CONNECT;
    }

    /** The address the connect was started to. */
    public SocketAddress getRemoteAddress() {
        return request.address();
    }
}
