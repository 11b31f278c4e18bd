package dev.proactor.internal;

import dev.proactor.Op;
import dev.proactor.OpState;

/**
 * The state of one {@link Op} object that the machinery reads and writes: its place in a queue, its life-cycle
 * state and attachment. The public operation types are views over their slot; a slot is made once per operation
 * object and reused with it, so a use of an operation allocates nothing.
 *
 * <p>Intrusive links: a slot is in at most one queue at a time (a channel direction's waiting queue, a processor's
 * deferred queue, or the dispatcher's completion queue), so moving it allocates nothing.
 */
public abstract sealed class OpSlot permits ChannelSlot, TimerSlot {

    OpSlot next;
    OpSlot prev;
    OpQueue queue;

    volatile OpState state = OpState.INITIALIZED;
    /** When it entered the completion queue ({@link System#nanoTime()}); written only with statistics on. */
    long queuedAtNanos;
    Object attachment;

    OpSlot() {
    }

    /** Where the operation is in its life cycle; {@link OpState#COMPLETED} inside the callback. */
    public final OpState state() {
        return state;
    }

    /** The object given when the operation was started, or {@code null}. */
    public final Object attachment() {
        return attachment;
    }

    /** Calls the handler. Runs on a dispatcher thread without the dispatcher lock. */
    abstract void dispatch() throws Exception;

    /**
     * Called by the dispatching thread right before {@link #dispatch()}: an operation of a channel with overlapping
     * callbacks ({@link dev.proactor.AsynchChannel#setOverlappingCallbacks}) frees its direction and starts what
     * waited behind it. Never throws.
     */
    abstract void beforeDispatch();

    /** Reacts to a callback that threw. Never throws. */
    abstract void onHandlerFailure(Throwable failure);

    /**
     * Releases the operation after its callback (and any failure handling) finished, and starts what waited
     * behind it. Never throws.
     *
     * @param mayHandBack whether an operation started now may be handed back to the calling thread when it
     *                    completes at once (see {@link dev.proactor.AsynchChannel#setCompletionsAtStart}); false
     *                    once the calling thread has dispatched its share of such operations in a row
     * @return an operation that completed while it was started now, its completion claimed, for the calling thread
     *         to dispatch next; null if there is none
     */
    abstract ChannelSlot afterDispatch(boolean mayHandBack);

    /**
     * Called by the thread about to run the callback in a chain with room for one more: lets an operation of the
     * other direction of the same channel, started inside the callback, be handed back to this thread when it
     * completes at once ({@link dev.proactor.AsynchChannel#setChainedCallbacks}).
     *
     * @return the direction whose {@link ChannelDirection#closeChainAcross} the caller calls after the callback, or
     *         null if nothing was opened
     */
    abstract ChannelDirection openChainAcross();

    /**
     * Callbacks of this operation's channel one thread may dispatch in a row after this one ({@link CallbackChain}).
     */
    abstract int chainLimit();
}
