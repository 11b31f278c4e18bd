package dev.proactor;

/** Where a processor's leader comes from (seed §7.1, §7.2). */
public enum LeaderMode {
    /** Any pool (or {@code handleEvents}) thread takes leadership in turn; it waits, then dispatches. */
    SHARED,
    /** The processor has its own permanent leader thread that only waits and queues results. */
    DEDICATED,
    /**
     * The first of the demultiplexor's own pool threads to lead the processor leads it alone for the
     * demultiplexor's whole life, dispatching between its waits (an event loop); other pool threads and
     * {@code handleEvents} callers dispatch what it queued but never wait in the engine. An engine can then tie
     * its I/O to that one thread (io_uring makes a ring with one submitting thread, {@code SINGLE_ISSUER} and
     * {@code DEFER_TASKRUN}). Meant for one pool thread whose handlers never block: while the owner runs a
     * handler, nobody polls. The demultiplexor must be started before {@code handleEvents} is called.
     */
    OWNER;

    /** The configuration spelling ({@code shared}, {@code dedicated}). */
    public String configName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
