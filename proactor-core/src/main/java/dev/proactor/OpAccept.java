package dev.proactor;

import dev.proactor.internal.ChannelOpening;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * A completed accept. On success the handler takes the new connection with {@link #adopt(AsynchHandler)}; a
 * connection not adopted by the end of the callback is closed, so nothing leaks.
 */
public final class OpAccept extends ChannelOp {

    OpAccept(AsynchChannel channel) {
        super(channel, true);
    }

    @Override
    public OpKind getKind() {
        return OpKind.ACCEPT;
    }

    /** The address of the accepted peer, or {@code null} on error. */
    public SocketAddress getRemoteAddress() {
        return request.peer();
    }

    /** Whether an accepted connection is waiting to be adopted. */
    public boolean hasAcceptedConnection() {
        return request.acceptedHandle() != null;
    }

    /**
     * Takes the accepted connection as a new channel of the same demultiplexor served by {@code handler}.
     * Call it inside {@link AsynchHandler#onAcceptCompleted(OpAccept)}, at most once.
     *
     * @throws IllegalStateException if the accept failed or the connection was already adopted
     * @throws IOException           if the engine cannot register it (the connection is then closed)
     */
    public AsynchChannel adopt(AsynchHandler handler) throws IOException {
        if (request.acceptedHandle() == null) {
            throw new IllegalStateException("no accepted connection to adopt (error or already adopted)");
        }
        Object accepted = request.takeAcceptedHandle();
        AsynchChannel listener = getChannel();
        return new AsynchChannel(listener.getDemultiplexor(), handler,
                ChannelOpening.adoptAccepted(listener.core, accepted, handler));
    }
}
