package dev.proactor;

/** The life cycle of an operation (seed §5.1). Results are reused, so a state is seen again and again. */
public enum OpState {
    /** Prepared, not started: waiting behind an earlier operation of the same direction, or free. */
    INITIALIZED,
    /** In progress in an engine. */
    STARTED,
    /** Waiting in the processor because the maximum number of operations in flight was reached. */
    DEFERRED,
    /** Finished in the engine; waiting in the completion queue to be dispatched. */
    RESULT_READY,
    /** Could not be started (the channel was closed, the engine refused it); waiting to be dispatched. */
    START_ERROR,
    /** Posted by {@code post} or a timer; waiting in the completion queue to be dispatched. */
    POSTED,
    /** The handler's callback for it is running or has run. */
    COMPLETED
}
