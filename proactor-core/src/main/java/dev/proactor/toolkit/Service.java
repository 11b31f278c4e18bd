package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;

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
}
