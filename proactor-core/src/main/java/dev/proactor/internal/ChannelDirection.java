package dev.proactor.internal;

import dev.proactor.spi.OpKind;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One direction (input or output) of an {@link ChannelCore}: the one place that keeps the per-direction rules
 * of {@link AsynchHandler} ("completed in start order, never concurrently") on every path, error paths included.
 *
 * <p><b>State.</b> {@code active} is the one operation of the direction that has left the waiting queue: it is
 * in the processor (deferred), in the engine (pending), in the dispatcher's completion queue, or in its
 * callback, until the callback has returned. Operations started meanwhile wait in {@code waiting}, FIFO.
 * {@code closed} is set once by {@link #abort abort(…, close = true)}. A free list per operation kind keeps
 * dispatched operations for reuse.
 *
 * <p><b>Invariants</b> (all under this object's monitor):
 * <ol>
 *   <li>At most one operation of the direction is active; only the active one is ever handed to the processor
 *       or posted to the dispatcher, so at most one completion of the direction is queued or running at once
 *       (never concurrent).</li>
 *   <li>An operation becomes active only when the previous active one's callback has returned
 *       ({@link #finish}), and waiting operations become active in submission order (in order). With overlapping
 *       callbacks ({@link ChannelCore#setOverlappingCallbacks}) the previous one is released when its callback
 *       begins instead ({@link #release}); it stays off the free list until {@link #finish}.</li>
 *   <li>Cancel and close never complete an operation themselves: they mark every operation of the direction
 *       with its abort reason ({@link ChannelSlot#abortReason}); a waiting operation is failed with it when it
 *       becomes active, the active one is cancelled in the processor, which completes it once through the
 *       normal path. So error completions keep the order and the one-at-a-time rule too.</li>
 *   <li>After close every new operation is marked with {@link ClosedChannelException} at submission and is
 *       completed, in order, through the same path.</li>
 *   <li>An operation is on the free list only after its callback returned and once no cancel of its last use is
 *       under way ({@link Marked}), and never at the same time in a queue or active.</li>
 * </ol>
 *
 * <p>The caller acts on what these methods return, outside the monitor: an operation returned by
 * {@link #submit} or {@link #finish} must be given to {@link Processor#start} (which fails it at once if it is
 * marked), a {@link Marked} returned by {@link #abort} or {@link #timeOut} must be cancelled
 * ({@link Marked#cancel}), once.
 */
final class ChannelDirection {

    private static final int KINDS = OpKind.values().length;

    final String name;
    private final OpQueue waiting = new OpQueue();
    /** Free lists by kind ({@link OpKind#ordinal()}), linked through {@link ChannelSlot#nextFree}. */
    private final ChannelSlot[] free = new ChannelSlot[KINDS];
    private ChannelSlot active;
    private boolean closed;
    /** Starts counted under this monitor (taken anyway); ends by the dispatching thread (see {@link IoCounts}). */
    final IoCounts counters = new IoCounts();
    /**
     * The thread running this direction's callback in a chain that may take an operation of the other direction
     * ({@link #openChainAcross}), else null. Not under the monitor: only that thread writes these two fields, and it
     * compares the field with itself, so a stale value another thread reads is never that thread's own.
     */
    private Thread chainingThread;
    /** The other direction's operation that completed at start inside that callback, handed back to its thread. */
    private ChannelSlot handedBackAcross;
    /**
     * Whether the next operation of this direction is one a thread will block for ({@link #takeAwaitNext}). Written
     * and read by the thread that starts that operation, before and while it starts it.
     */
    private boolean awaitNext;

    ChannelDirection(String name) {
        this.name = name;
    }

    /** A free operation of {@code kind}, or null if there is none (the caller makes one). */
    synchronized ChannelSlot takeFree(OpKind kind) {
        int i = kind.ordinal();
        ChannelSlot op = free[i];
        if (op != null) {
            free[i] = op.nextFree;
            op.nextFree = null;
        }
        return op;
    }

    /**
     * Begins a new use of {@code op} (its result state cleared, no abort mark) before the submitting thread arms
     * its timeout, so a timer that fires before admission finds this use and marks it ({@link #timeOut}).
     *
     * @return the number of the new use
     */
    synchronized int beginUse(ChannelSlot op) {
        op.resetForUse();
        return ++op.use;
    }

    /**
     * Admits a prepared operation whose use has begun ({@link #beginUse}); a mark it already carries (a timeout
     * that fired before admission) is kept.
     *
     * @param channelClosed whether the caller saw its channel closed before submitting: the operation is then
     *                      marked with {@link ClosedChannelException} even if the closing thread has not reached
     *                      {@link #abort} yet (a second {@code close()} returns at once, before the first one marked
     *                      the directions)
     * @return {@code op} if it became active and the caller must start it now, or null if it waits behind the
     *         active operation
     */
    synchronized ChannelSlot submit(ChannelSlot op, boolean channelClosed) {
        if ((closed || channelClosed) && op.abortReason == null) {
            op.abortReason = new ClosedChannelException();
        }
        if (IoCounts.ENABLED) {
            counters.countStarted();
        }
        if (active == null) {
            active = op;
            return op;
        }
        waiting.add(op);
        return null;
    }

    /**
     * Ends the active operation after its callback returned: recycles it and makes the next waiting operation
     * active.
     *
     * @return the next operation, now active, that the caller must start, or null
     * @throws IllegalStateException if {@code op} is not the active operation (a broken invariant)
     */
    synchronized ChannelSlot finish(ChannelSlot op) {
        if (op.releasedBeforeCallback) {
            op.releasedBeforeCallback = false;
            recycle(op);
            return null; // what waited behind it was started by release
        }
        if (active != op) {
            throw new IllegalStateException(name + ": finished " + op + " is not the active operation " + active);
        }
        recycle(op);
        active = (ChannelSlot) waiting.poll();
        return active;
    }

    /**
     * Ends the active operation as its callback begins, for a channel with overlapping callbacks
     * ({@link ChannelCore#setOverlappingCallbacks}): the next waiting operation becomes active at once, and
     * {@code op} stays off the free list (its callback still reads it) until {@link #finish}.
     *
     * @return the next operation, now active, that the caller must start, or null
     * @throws IllegalStateException if {@code op} is not the active operation (a broken invariant)
     */
    synchronized ChannelSlot release(ChannelSlot op) {
        if (active != op) {
            throw new IllegalStateException(name + ": released " + op + " is not the active operation " + active);
        }
        op.releasedBeforeCallback = true;
        active = (ChannelSlot) waiting.poll();
        return active;
    }

    /**
     * Recycles an operation whose callback returned: onto the free list, or, while a late cancel of its last use is
     * still running, only once that cancel has returned ({@link Marked#cancel}). Monitor held.
     */
    private void recycle(ChannelSlot op) {
        op.recycle();
        if (op.cancelling) {
            op.freeAfterCancel = true; // reused only once that cancel has returned (Marked#cancel)
        } else {
            addFree(op);
        }
    }

    /** Puts a recycled operation on the free list of its kind. Monitor held. */
    private void addFree(ChannelSlot op) {
        int i = op.getKind().ordinal();
        op.nextFree = free[i];
        free[i] = op;
    }

    /** The next operation the calling thread starts on this direction is one a thread will block for. */
    void awaitNext() {
        awaitNext = true;
    }

    /** Whether the operation being started is awaited ({@link #awaitNext}); clears the mark. Starting thread. */
    boolean takeAwaitNext() {
        boolean on = awaitNext;
        awaitNext = false;
        return on;
    }

    /**
     * Takes the timers of the free operations out of the timer queue (the channel is closed: no use of them will
     * come). Called by the closing thread after {@link #abort abort(…, close = true)}; an operation freed later is
     * released by the thread that frees it ({@link OperationStarter#afterDispatch}).
     */
    void releaseFreeTimeouts() {
        List<OpTimeout> timeouts = null; // most channels never time an operation: no list for them
        synchronized (this) {
            for (ChannelSlot head : free) {
                for (ChannelSlot op = head; op != null; op = op.nextFree) {
                    if (op.timeout != null) {
                        if (timeouts == null) {
                            timeouts = new ArrayList<>();
                        }
                        timeouts.add(op.timeout);
                    }
                }
            }
        }
        if (timeouts != null) {
            for (OpTimeout t : timeouts) {
                t.release(); // outside the monitor: releasing takes the dispatcher's lock
            }
        }
    }

    /**
     * The active operation marked by {@link #abort} or {@link #timeOut}, with the reason it was marked with
     * (identifies that use). Until {@link #cancel} has returned, the object is held back from reuse: a use that ends
     * meanwhile goes to the free list only then. So the processor's cancel, whose checks and whose engine call are
     * not atomic with the use ending, can never reach a later use of a recycled object (which it would fail with
     * this reason, or end as a success it never had).
     */
    record Marked(ChannelSlot op, Throwable reason) {

        /**
         * Cancels the marked use in {@code processor} (nothing happens if it has ended meanwhile), then lets the
         * object be reused. Called exactly once per {@code Marked}, by the thread that got it; no lock held.
         */
        void cancel(Processor processor) {
            try {
                processor.cancel(op, reason);
            } finally {
                op.direction.cancelEnded(op);
            }
        }
    }

    /** A {@link Marked} for the active {@code op}, held back from reuse until its cancel ends. Monitor held. */
    private static Marked marked(ChannelSlot op) {
        op.cancelling = true;
        return new Marked(op, op.abortReason);
    }

    /**
     * The cancel of {@code op}'s marked use has returned ({@link Marked#cancel}): the object may be reused; if its
     * use ended meanwhile, it goes to its free list now (its timer taken out of the queue if the channel is closed:
     * {@link #releaseFreeTimeouts} did not see it).
     */
    private void cancelEnded(ChannelSlot op) {
        OpTimeout release = null;
        synchronized (this) {
            op.cancelling = false;
            if (op.freeAfterCancel) {
                op.freeAfterCancel = false;
                addFree(op);
                if (closed) {
                    release = op.timeout;
                }
            }
        }
        if (release != null) {
            release.release(); // outside the monitor: releasing takes the dispatcher's lock
        }
    }

    /**
     * Marks every operation of the direction to end with a reason from {@code reasons} (one instance each) unless
     * it already has one; with {@code close}, also every later operation (with {@link ClosedChannelException}).
     *
     * @return the active operation if it was marked now, with its reason (the caller cancels that use:
     *         {@link Marked#cancel}, which does nothing if the use has ended meanwhile), else null
     */
    synchronized Marked abort(Supplier<? extends Throwable> reasons, boolean close) {
        if (close) {
            closed = true;
        }
        for (OpSlot op = waiting.peek(); op != null; op = op.next) {
            ((ChannelSlot) op).markAborted(reasons);
        }
        if (active != null && active.markAborted(reasons)) {
            return marked(active);
        }
        return null;
    }

    /**
     * Marks {@code op} with {@code reason} if it still serves use number {@code use} and has neither been
     * aborted nor completed (a timeout that lost the race with the completion does nothing). The use may be
     * active, waiting, or begun and not admitted yet (its submitting thread was preempted between arming the
     * timer and {@link #submit}): the mark then fails it when it becomes active.
     *
     * @return the marked operation if it is the active one (the caller cancels it: {@link Marked#cancel}), else
     *         null
     */
    synchronized Marked timeOut(ChannelSlot op, int use, Throwable reason) {
        if (op.use != use || op.abortReason != null || op.isCompletionClaimed()) {
            return null;
        }
        op.abortReason = reason;
        return op == active ? marked(op) : null;
    }

    /**
     * The calling thread is about to run a callback of this direction as part of a chain
     * ({@link CallbackChain}): until {@link #closeChainAcross}, an operation of the other direction that this thread
     * starts and that completes at once is handed back to it ({@link #handBackAcross}) instead of being queued.
     */
    void openChainAcross() {
        chainingThread = Thread.currentThread();
    }

    /** Whether the calling thread runs a callback of this direction with the chain across directions open. */
    boolean isChainAcrossOpenHere() {
        return chainingThread == Thread.currentThread();
    }

    /**
     * Keeps {@code op}, of the other direction, completed at start and its completion claimed, for the thread of
     * the open chain to dispatch after the callback. At most one per callback: that operation stays active in its
     * direction until dispatched, so what else the callback starts there waits behind it.
     *
     * @throws IllegalStateException if one is already kept (a broken invariant)
     */
    void handBackAcross(ChannelSlot op) {
        if (handedBackAcross != null) {
            throw new IllegalStateException(name + ": " + op + " handed back while " + handedBackAcross + " waits");
        }
        handedBackAcross = op;
    }

    /**
     * Ends what {@link #openChainAcross} began, after the callback returned.
     *
     * @return the operation handed back meanwhile, to dispatch, or null
     */
    ChannelSlot closeChainAcross() {
        chainingThread = null;
        ChannelSlot op = handedBackAcross;
        handedBackAcross = null;
        return op;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** The active operation, or null (tests and diagnostics). */
    synchronized ChannelSlot active() {
        return active;
    }

    /** The first waiting operation, or null (tests and diagnostics). */
    synchronized ChannelSlot waitingHead() {
        return (ChannelSlot) waiting.peek();
    }

    /** Number of waiting operations (tests and diagnostics). */
    synchronized int waitingCount() {
        return waiting.size();
    }

    @Override
    public synchronized String toString() {
        return name + "[active=" + active + ", waiting=" + waiting.size() + (closed ? ", closed" : "") + "]";
    }
}
