package dev.proactor.internal;

import dev.proactor.OpState;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A processor's in-flight limit and the operations waiting to enter its engine: counts the requests in the engine
 * against the limit, queues the operations that found no free slot (at the tail) or that the engine answered
 * DEFERRED (back at the head), and starts them through the processor's {@link EngineStarter} as slots are freed
 * or the engine gets room.
 *
 * <p>Thread-safety: every method may be called from any thread, never with the dispatcher lock held (a start
 * posts completions, which takes it). The queue is guarded by synchronizing on it; that lock is a leaf: only the
 * queue, the slot count and the operation's state are touched while it is held. The slot count is an atomic,
 * taken before a start and given back when the request leaves the engine or the engine defers it;
 * {@code deferredCount} is a volatile copy of the queue's size, written under the queue's lock and read without
 * it. One thread at a time drains the queue ({@code drainers}).
 *
 * <p>Errors: none of its own. What the engine throws from a start or a cancel ends that operation in the
 * {@link EngineStarter}, which never lets it out: an exception leaving the drain loop would leave
 * {@code drainers} raised, and no thread would drain the queue again.
 */
final class DeferredStarts {

    private final EngineStarter starter;
    private final DispatchCounts totals;
    /** Maximum operations in the engine at once; {@link Integer#MAX_VALUE} means no counting at all. */
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Operations waiting for a free slot (or for an engine that said DEFERRED); guarded by synchronizing on it. */
    private final OpQueue deferred = new OpQueue();
    private volatile int deferredCount;
    /** Requests to drain {@link #deferred}; the thread that raises it from 0 drains (see {@link #startDeferred}). */
    private final AtomicInteger drainers = new AtomicInteger();

    /**
     * The deferred starts of {@code starter}'s engine, at most {@code maxInFlight} operations in it at once
     * ({@link Integer#MAX_VALUE}: no limit), each deferral counted in {@code totals}.
     */
    DeferredStarts(EngineStarter starter, int maxInFlight, DispatchCounts totals) {
        this.starter = starter;
        this.maxInFlight = maxInFlight;
        this.totals = totals;
    }

    /** Whether operations are counted against a limit (without one, only those the engine deferred wait here). */
    boolean limitsInFlight() {
        return maxInFlight != Integer.MAX_VALUE;
    }

    /** Whether operations wait here; read without the queue's lock. */
    boolean hasDeferred() {
        return deferredCount > 0;
    }

    /** Takes an in-flight slot for an operation about to start: false, with nothing taken, if none is free. */
    boolean tryTakeSlot() {
        if (!limitsInFlight()) {
            return true;
        }
        if (inFlight.incrementAndGet() <= maxInFlight) {
            return true;
        }
        inFlight.decrementAndGet();
        return false;
    }

    /** Queues {@code op}, which found no free slot, behind the operations already waiting. */
    void deferForSlot(ChannelSlot op) {
        defer(op, false);
        startDeferred(); // a slot may have been freed between our failed increment and the add
    }

    /** The engine answered DEFERRED to {@code op}: it gives its slot back and waits at the head of the queue. */
    void deferredByEngine(ChannelSlot op) {
        releaseSlot();
        defer(op, true);
    }

    private void defer(ChannelSlot op, boolean first) {
        synchronized (deferred) {
            op.state = OpState.DEFERRED;
            if (first) {
                deferred.addFirst(op);
            } else {
                deferred.add(op);
            }
            deferredCount = deferred.size();
        }
        totals.countDeferred();
    }

    /**
     * Takes {@code op} out of the queue if it waits there (it is being cancelled).
     *
     * @return whether it waited here; it then never reached the engine and holds no slot
     */
    boolean remove(ChannelSlot op) {
        if (limitsInFlight() || deferredCount > 0) {
            boolean removed;
            synchronized (deferred) {
                removed = deferred.remove(op);
                deferredCount = deferred.size();
            }
            return removed;
        }
        return false;
    }

    /** A request left the engine: free its slot and start what waits for one. */
    void requestLeftEngine() {
        releaseSlot();
        startDeferred();
    }

    /**
     * The leader collected {@code n} completed requests (0 after a wait that found nothing): free their slots and
     * start what waits.
     */
    void requestsLeftEngine(int n) {
        if (n > 0 && limitsInFlight()) {
            inFlight.addAndGet(-n);
        }
        if (n > 0 || deferredCount > 0) {
            startDeferred(); // also after a wait that found nothing: an engine that deferred may have room now
        }
    }

    private void releaseSlot() {
        if (limitsInFlight()) {
            inFlight.decrementAndGet();
        }
    }

    /**
     * Starts deferred operations while slots are free. Iterative, never recursive: one thread at a time drains
     * (a completion at start inside the drain calls back here and only counts as "look again"), so thousands of
     * deferred operations that complete at once cannot overflow the stack. Any thread; never with the
     * dispatcher lock.
     */
    private void startDeferred() {
        if (deferredCount == 0 || drainers.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        for (;;) {
            for (ChannelSlot op = pollDeferredWithSlot(); op != null; op = pollDeferredWithSlot()) {
                if (!starter.startInEngine(op)) {
                    break; // the engine is full: retried when one of its requests leaves it
                }
            }
            missed = drainers.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** The first deferred operation, with an in-flight slot taken for it, or null. */
    private ChannelSlot pollDeferredWithSlot() {
        synchronized (deferred) {
            if (deferred.isEmpty()) {
                return null;
            }
            if (!tryTakeSlot()) {
                return null;
            }
            ChannelSlot op = (ChannelSlot) deferred.poll();
            deferredCount = deferred.size();
            return op;
        }
    }
}
