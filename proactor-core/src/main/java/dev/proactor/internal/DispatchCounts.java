package dev.proactor.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link dev.proactor.DispatchTotals}, its view: counted by the dispatcher, processors and
 * followers where they hold a lock anyway, or with a striped adder. Made once per demultiplexor.
 */
public final class DispatchCounts {

    private final LongAdder dispatched = new LongAdder();
    private final LongAdder deferred = new LongAdder();
    /** Written under the dispatcher lock only; volatile so that readers need no lock. */
    private volatile long highWater;
    private volatile long handOffs;

    DispatchCounts() {
    }

    public void countDispatch() {
        dispatched.increment();
    }

    /** Dispatcher lock held. */
    public void queueDepth(int depth) {
        if (depth > highWater) {
            highWater = depth;
        }
    }

    /** Dispatcher lock held. */
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // single writer: the lock holder
    public void countHandOff() {
        handOffs = handOffs + 1;
    }

    public void countDeferred() {
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
