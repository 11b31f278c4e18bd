package dev.proactor.spi;

import java.util.function.BooleanSupplier;

/**
 * What an {@link EngineProvider} is told when creating an engine.
 *
 * @param waitStrategy the wait strategy name, already checked against {@link EngineProvider#waitStrategies()}
 * @param name         a short name for threads and log lines, e.g. {@code proactor-1-primary}
 * @param ownThread    tells whether the calling thread belongs to the engine's demultiplexor (one of its pool
 *                     threads or its dedicated leader): such a thread lives until the demultiplexor closes, after
 *                     every channel, so requests it hands to a kernel that ties them to the submitting thread
 *                     (io_uring) outlive nothing they serve. Any other thread (a user thread calling
 *                     {@code read}, a virtual thread's carrier) may exit at any time.
 * @param soleLeader   the engine's wait strategy is run by one thread only, the same for the engine's whole life
 *                     ({@link dev.proactor.LeaderMode#OWNER}): the first thread to wait, one of the demultiplexor's
 *                     own, or, if none ever waited, the thread that closes the demultiplexor (for its last wait).
 *                     The engine may then tie submission and completion to that thread.
 */
public record EngineSettings(String waitStrategy, String name, BooleanSupplier ownThread, boolean soleLeader) {

    /** Settings whose wait strategy any thread may run (see {@link #soleLeader()}). */
    public EngineSettings(String waitStrategy, String name, BooleanSupplier ownThread) {
        this(waitStrategy, name, ownThread, false);
    }

    /** Settings whose engine is told that no thread is its own (tests, engines made outside a demultiplexor). */
    public EngineSettings(String waitStrategy, String name) {
        this(waitStrategy, name, () -> false);
    }
}
