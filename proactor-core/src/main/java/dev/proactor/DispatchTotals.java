package dev.proactor;

import dev.proactor.internal.DispatchCounts;

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

    private final DispatchCounts counts;

    DispatchTotals(DispatchCounts counts) {
        this.counts = counts;
    }

    /** Callbacks run so far. */
    public long completionsDispatched() {
        return counts.completionsDispatched();
    }

    /** The most completions ever queued at once. */
    public long queueHighWater() {
        return counts.queueHighWater();
    }

    /** Followers woken so far. */
    public long leaderHandOffs() {
        return counts.leaderHandOffs();
    }

    /** Operations put in a deferred queue so far. */
    public long deferredStarts() {
        return counts.deferredStarts();
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
