package dev.proactor;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running totals of a demultiplexor, always on and read without locks ({@link Demultiplexor#getTotals()}):
 * <ul>
 *   <li>{@link #completionsDispatched()}: callbacks run (I/O completions, timers, posted completions);</li>
 *   <li>{@link #queueHighWater()}: the deepest the completion queue has been;</li>
 *   <li>{@link #leaderHandOffs()}: times a thread woke a sleeping follower to take the poll or the queue (the
 *       leader/follower hand-off);</li>
 *   <li>{@link #deferredStarts()}: times an operation could not go to the engine at once (the
 *       {@code proactor.maxInFlight} limit, or an engine that asked to retry later) and was put in the
 *       processor's deferred queue; an operation deferred twice counts twice.</li>
 * </ul>
 * The values are counted where the framework already holds a lock (queue depth, hand-offs, deferrals) or with
 * a striped adder (dispatches), so recording them allocates nothing and adds no contention.
 */
public final class DispatchTotals {

    private final LongAdder dispatched = new LongAdder();
    private final LongAdder deferred = new LongAdder();
    /** Written under the dispatcher lock only; volatile so that readers need no lock. */
    private volatile long highWater;
    private volatile long handOffs;

    DispatchTotals() {
    }

    void countDispatch() {
        dispatched.increment();
    }

    /** Dispatcher lock held. */
    void queueDepth(int depth) {
        if (depth > highWater) {
            highWater = depth;
        }
    }

    /** Dispatcher lock held. */
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // single writer: the lock holder
    void countHandOff() {
        handOffs = handOffs + 1;
    }

    void countDeferred() {
        deferred.increment();
    }

    /** Callbacks run so far. */
    public long completionsDispatched() {
        return dispatched.sum();
    }

    /** The most completions ever queued at once. */
    public long queueHighWater() {
        return highWater;
    }

    /** Followers woken so far. */
    public long leaderHandOffs() {
        return handOffs;
    }

    /** Operations put in a deferred queue so far. */
    public long deferredStarts() {
        return deferred.sum();
    }

    @Override
    public String toString() {
        return "completions dispatched=" + completionsDispatched() + ", queue high-water=" + queueHighWater()
                + ", leader hand-offs=" + leaderHandOffs() + ", deferred starts=" + deferredStarts();
    }
}
