package dev.proactor.spi;

/** What {@link Engine#start(IoRequest)} did with a request. */
public enum StartResult {
    /** The request finished at once (success or error recorded in it); the caller posts the completion. */
    COMPLETED,
    /** The request is in progress; it will come out of {@link WaitStrategy#nextCompleted()} or be cancelled. */
    PENDING,
    /**
     * As {@link #PENDING}, and the engine had to add interest that a wait already blocked in another thread does
     * not see: the processor interrupts that wait (only when another thread leads). Engines return it only when
     * the interest really changed, so a start that finds its interest already registered costs no wake-up.
     */
    PENDING_INTERRUPT,
    /**
     * The engine cannot take the request now (a resource is full) and has kept nothing of it: the processor
     * defers it and starts it again later, in order before requests deferred after it: when a request leaves the
     * engine, and after every leader wait while requests are deferred (the leader's waits are then at most about
     * a millisecond, and a start deferred outside the leader interrupts its wait), so a deferral never depends
     * on a completion that may not come.
     */
    DEFERRED
}
