package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;

/** A handler for one accepted connection, started once its channel exists. */
interface ConnectionHandler extends AsynchHandler {

    /** Called by the acceptor right after adoption, inside the accept callback. */
    void start(AsynchChannel channel);
}
