package dev.proactor;

/**
 * A completion the demultiplexor dispatches to a handler: the result of an I/O operation ({@link ChannelOp}) or
 * a timer/posted completion ({@link OpTimer}).
 *
 * <p>Operation objects are owned by the framework and reused; a handler reads them inside its callback only.
 */
public abstract sealed class Op permits ChannelOp, OpTimer {

    // Intrusive links: an Op is in at most one queue at a time (a channel direction's waiting queue, a
    // processor's deferred queue, or the dispatcher's completion queue), so moving it allocates nothing.
    Op next;
    Op prev;
    OpQueue queue;

    volatile OpState state = OpState.INITIALIZED;
    /** When it entered the completion queue ({@link System#nanoTime()}); written only with statistics on. */
    long queuedAtNanos;
    Object attachment;

    Op() {
    }

    /** Where the operation is in its life cycle; {@link OpState#COMPLETED} inside the callback. */
    public OpState getState() {
        return state;
    }

    /** The object given when the operation was started, or {@code null}. */
    public Object getAttachment() {
        return attachment;
    }

    /** Calls the handler. Runs on a dispatcher thread without the dispatcher lock. */
    abstract void dispatch() throws Exception;

    /**
     * Called by the dispatching thread right before {@link #dispatch()}: an operation of a channel with overlapping
     * callbacks ({@link AsynchChannel#setOverlappingCallbacks}) frees its direction and starts what waited behind it.
     * Never throws.
     */
    abstract void beforeDispatch();

    /** Reacts to a callback that threw. Never throws. */
    abstract void onHandlerFailure(Throwable failure);

    /**
     * Releases the operation after its callback (and any failure handling) finished, and starts what waited
     * behind it. Never throws.
     *
     * @param mayHandBack whether an operation started now may be handed back to the calling thread when it
     *                    completes at once (see {@link AsynchChannel#setCompletionsAtStart}); false once the calling
     *                    thread has dispatched its share of such operations in a row
     * @return an operation that completed while it was started now, its completion claimed, for the calling thread
     *         to dispatch next; null if there is none
     */
    abstract ChannelOp afterDispatch(boolean mayHandBack);

    /**
     * Called by the thread about to run the callback in a chain with room for one more: lets an operation of the
     * other direction of the same channel, started inside the callback, be handed back to this thread when it
     * completes at once ({@link AsynchChannel#setChainedCallbacks}).
     *
     * @return the direction whose {@link ChannelDirection#closeChainAcross} the caller calls after the callback, or
     *         null if nothing was opened
     */
    abstract ChannelDirection openChainAcross();
}
