package dev.proactor.internal;

import dev.proactor.OpState;

/**
 * Runs a completion's callback for the {@link Dispatcher}, then the operations its channel hands back after it
 * (completed at start by the thread that ran the callback), at most {@value #MAX_CHAINED_AT_START} in a row (a
 * listening socket's accepts: {@value #ACCEPTS_CHAINED_AT_START}; {@link OpSlot#chainLimit}).
 *
 * <p>Two kinds of operation are handed back: the next one of the callback's own direction, which waited for the
 * callback to return and was started by this thread after it ({@link ChannelCore#setCompletionsAtStart} or
 * {@link ChannelCore#setChainedCallbacks}); and, with chained callbacks, one of the other direction that the
 * callback itself started ({@link ChannelDirection#openChainAcross}). So at most one operation of each direction of
 * the channel is held at a time: the one being dispatched and one waiting, of the other direction. They alternate,
 * the waiting one first, since it was handed back earlier.
 *
 * <p>On a channel with overlapping callbacks ({@link ChannelCore#setOverlappingCallbacks}) the direction is freed
 * before each callback instead ({@link OpSlot#beforeDispatch}): what the callback starts there is started at once, not
 * handed back, and may complete (even be dispatched nested inside the callback, if it completes at start) while the
 * callback still runs.
 *
 * <p>Thread-safety: no state; runs on the dispatching thread, without the dispatcher's lock.
 */
final class CallbackChain {

    /**
     * Operations completed at start that one thread dispatches in a row after the callback they waited for (the
     * limit of every channel type but a listening socket's, {@link ChannelType#chainLimit}).
     */
    static final int MAX_CHAINED_AT_START = 16;

    /**
     * Accepts one thread dispatches in a row on a listening socket (the callbacks chained after the first), where
     * other channels stop at {@link #MAX_CHAINED_AT_START}: a large share of a full backlog (Linux caps a listen
     * backlog at 4 096 by default). An accept callback is short (it hands the connection
     * to its service, whose I/O then queues with every other channel's), and the connections of a burst are all
     * waiting: cut at 16, every 16 of them waited for a trip through the completions of every busy session, and the
     * backlog overflowed meanwhile (clients then retry their handshake after a second or more). Bounded, so that
     * connections arriving faster than they are accepted still leave the other channels a turn.
     */
    static final int ACCEPTS_CHAINED_AT_START = 1024;

    private CallbackChain() {
    }

    /**
     * Dispatches an operation whose completion the calling thread claimed at its start
     * ({@link Processor#startHandingBack}) on that thread, now: its callback, then what follows it. The thread
     * is not made a thread of the dispatcher (what the callback completes is posted as from any thread).
     */
    static void dispatchHandedBack(ChannelSlot op, DispatchCounts totals) {
        op.state = OpState.COMPLETED;
        dispatch(op, totals, false);
    }

    /**
     * Runs a callback and what its channel hands back after it, in a loop (the stack does not grow), at most
     * {@link OpSlot#chainLimit} ({@value #MAX_CHAINED_AT_START} but on a listening socket) in a row after the first;
     * after that, operations are started as usual and queued, so one channel cannot keep a thread to itself (what was
     * already handed back is still dispatched here: its completion is claimed, at most one more).
     *
     * @param poolThread whether the calling thread is one of the demultiplexor's pool threads: the interrupt status a
     *                   callback leaves behind is then cleared after it, so the next callback on the thread does not
     *                   see it (a caller's own thread keeps its status: it may be the caller's to act on)
     */
    static void dispatch(OpSlot op, DispatchCounts totals, boolean poolThread) {
        ChannelSlot waiting = null; // handed back, of the direction other than op's: dispatched after op
        int limit = op.chainLimit(); // every operation of the chain is of op's channel
        for (int chained = 0; ; chained++) {
            boolean mayChain = chained < limit;
            totals.countDispatch();
            ChannelDirection across = mayChain ? op.openChainAcross() : null;
            op.beforeDispatch();
            try {
                op.dispatch();
            } catch (Throwable t) {
                op.onHandlerFailure(t);
            }
            if (poolThread) {
                Thread.interrupted(); // a handler's leftover interrupt is not the next handler's
            }
            // While one of the other direction waits here, it is that direction's active operation: what the
            // callback started there waited behind it, so nothing was handed back across as well.
            ChannelSlot crossed = across == null ? null : across.closeChainAcross();
            ChannelSlot next = op.afterDispatch(mayChain);
            ChannelSlot other = waiting != null ? waiting : crossed;
            if (other != null) {
                waiting = next;
                op = other;
            } else if (next != null) {
                op = next;
            } else {
                return;
            }
            op.state = OpState.COMPLETED;
        }
    }
}
