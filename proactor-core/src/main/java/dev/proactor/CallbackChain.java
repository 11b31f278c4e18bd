package dev.proactor;

/**
 * Runs a completion's callback for the {@link Dispatcher}, then the operations its channel hands back after it
 * (completed at start by the thread that ran the callback), at most {@value #MAX_CHAINED_AT_START} in a row.
 *
 * <p>Thread-safety: no state; runs on the dispatching thread, without the dispatcher's lock.
 */
final class CallbackChain {

    /** Operations completed at start that one thread dispatches in a row after the callback they waited for. */
    static final int MAX_CHAINED_AT_START = 16;

    private CallbackChain() {
    }

    /**
     * Dispatches an operation whose completion the calling thread claimed at its start
     * ({@link Processor#startHandingBack}) on that thread, now: its callback, then what follows it. The thread
     * is not made a thread of the dispatcher (what the callback completes is posted as from any thread).
     */
    static void dispatchHandedBack(ChannelOp op, DispatchTotals totals) {
        op.state = OpState.COMPLETED;
        dispatch(op, totals);
    }

    /**
     * Runs a callback and what its channel hands back after it: an operation that waited behind it and completed
     * at once when started by this thread ({@link AsynchChannel#setCompletionsAtStart}) is dispatched here next,
     * in a loop (the stack does not grow), at most {@value #MAX_CHAINED_AT_START} in a row; after that the next
     * one is started as usual and queued, so one channel cannot keep a thread to itself.
     */
    static void dispatch(Op op, DispatchTotals totals) {
        for (int chained = 0; ; chained++) {
            totals.countDispatch();
            try {
                op.dispatch();
            } catch (Throwable t) {
                op.onHandlerFailure(t);
            }
            ChannelOp next = op.afterDispatch(chained < MAX_CHAINED_AT_START);
            if (next == null) {
                return;
            }
            next.state = OpState.COMPLETED;
            op = next;
        }
    }
}
