package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import java.io.IOException;

/**
 * A per-connection service started by an {@link Acceptor} or a {@link Connector}: the handler of the connection,
 * told its channel once the connection exists.
 */
public interface Service extends AsynchHandler {

    /**
     * The connection is established and served by this object: start the first operations here. Called once,
     * on a demultiplexor thread, before any completion of the channel is dispatched to this service. If it
     * throws, the error is logged and the channel is closed.
     */
    void start(AsynchChannel channel) throws Exception;

    /**
     * Takes a connection accepted by an {@link Acceptor} and returns its socket channel, which the acceptor
     * watches to count the connection and then passes to {@link #start}. By default the service itself becomes
     * the socket's handler ({@code accepted.adopt(this)}). A service that puts a layer between itself and the
     * socket overrides this to let the layer adopt it, e.g. TLS:
     * {@code tls = TlsChannel.adopt(accepted, engine, this); return tls.getTransport();}.
     *
     * <p>Called once, on a demultiplexor thread inside the accept completion, before {@link #start}. It must
     * either adopt the connection and return the adopted channel, or throw having adopted nothing (the
     * connection is then closed and the error logged). The {@link Connector} does not call it.
     *
     * @throws IOException if the connection cannot be registered
     */
    default AsynchChannel adopt(OpAccept accepted) throws IOException {
        return accepted.adopt(this);
    }
}
