package dev.proactor;

import dev.proactor.spi.Engine;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives one engine (the seed's AIO_Processor, §7): starts operations or defers them when the maximum in
 * flight is reached, cancels them, and, in its leader thread, waits with the engine's wait strategy and moves
 * completed results to the dispatcher's queue.
 *
 * <p>Shared mode: any {@code handleEvents} thread may take leadership (one at a time); it waits, queues what it
 * found and goes back to dispatching. Dedicated mode: a permanent thread of the processor is the leader and
 * wakes followers for every batch it queues.
 *
 * <p>Thread-safety: {@link #start} and {@link #cancel} are called from any thread; {@link #lead} only by the
 * current leader; the leadership methods ending in {@code Locked} with the dispatcher lock held.
 */
final class Processor {

    private final String name;
    private final Engine engine;
    private final WaitStrategy waitStrategy;
    private final InterruptStrategy interrupt;
    private final Dispatcher dispatcher;
    private final LeaderMode mode;
    private final boolean interruptOnStart;

    /** Maximum operations in the engine at once; {@link Integer#MAX_VALUE} means no counting at all. */
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Operations waiting for a free slot; guarded by synchronizing on it. */
    private final OpQueue deferred = new OpQueue();
    private volatile int deferredCount;

    /** The thread currently leading, or null. Written under the dispatcher lock. */
    private volatile Thread leader;
    private Thread dedicatedThread;
    private volatile boolean dedicatedStopped;

    Processor(String name, Engine engine, Dispatcher dispatcher, LeaderMode mode, int configuredMaxInFlight) {
        this.name = name;
        this.engine = engine;
        this.waitStrategy = engine.waitStrategy();
        this.interrupt = waitStrategy.interruptStrategy();
        this.dispatcher = dispatcher;
        this.mode = mode;
        this.interruptOnStart = engine.startInterruptsLeader();
        int limit = configuredMaxInFlight <= 0 ? Integer.MAX_VALUE : configuredMaxInFlight;
        this.maxInFlight = Math.min(limit, engine.maxInFlight());
    }

    Engine engine() {
        return engine;
    }

    LeaderMode mode() {
        return mode;
    }

    boolean supports(OpKind kind) {
        return engine.supports(kind);
    }

    // ---------------------------------------------------------------- start and cancel

    /** Starts {@code op} (tries it at once), or defers it when the in-flight limit is reached. Any thread. */
    void start(ChannelOp op) {
        if (maxInFlight == Integer.MAX_VALUE) {
            startInEngine(op);
            return;
        }
        if (inFlight.incrementAndGet() <= maxInFlight) {
            startInEngine(op);
            return;
        }
        inFlight.decrementAndGet();
        defer(op);
    }

    private void defer(ChannelOp op) {
        synchronized (deferred) {
            op.state = OpState.DEFERRED;
            deferred.add(op);
            deferredCount = deferred.size();
        }
        // A slot may have been freed between our failed increment and the add: re-check.
        startDeferred();
    }

    /** Starts deferred operations while slots are free. Any thread; never called with the dispatcher lock. */
    private void startDeferred() {
        while (deferredCount > 0) {
            ChannelOp op;
            synchronized (deferred) {
                if (deferred.isEmpty()) {
                    return;
                }
                if (inFlight.incrementAndGet() > maxInFlight) {
                    inFlight.decrementAndGet();
                    return;
                }
                op = (ChannelOp) deferred.poll();
                deferredCount = deferred.size();
            }
            startInEngine(op);
        }
    }

    /** Starts {@code op} in the engine; the caller has accounted for its in-flight slot. */
    private void startInEngine(ChannelOp op) {
        op.state = OpState.STARTED;
        IoRequest request = op.request;
        StartResult result;
        try {
            result = engine.start(request);
        } catch (RuntimeException e) {
            // An engine bug or an unexpected channel state must still end the operation exactly once.
            request.fail(e);
            result = StartResult.COMPLETED;
        }
        switch (result) {
            case COMPLETED -> {
                leftEngine();
                dispatcher.postResult(op, request.error() == null ? OpState.RESULT_READY : OpState.START_ERROR);
            }
            case PENDING -> {
                if (interruptOnStart) {
                    Thread l = leader;
                    if (l != null && l != Thread.currentThread()) {
                        interrupt.interrupt(); // the leader's wait must take the new interest into account
                    }
                }
            }
            case DEFERRED -> {
                if (maxInFlight != Integer.MAX_VALUE) {
                    inFlight.decrementAndGet();
                }
                defer(op);
            }
        }
    }

    /**
     * Cancels {@code op} if it is deferred or pending in the engine: it then completes with {@code reason}.
     * An operation that has already completed is left alone (it is dispatched with its result). Any thread.
     */
    void cancel(ChannelOp op, Throwable reason) {
        if (maxInFlight != Integer.MAX_VALUE) {
            boolean removed;
            synchronized (deferred) {
                removed = deferred.remove(op);
                deferredCount = deferred.size();
            }
            if (removed) {
                op.request.fail(reason);
                dispatcher.postResult(op, OpState.START_ERROR);
                return;
            }
        }
        if (engine.cancel(op.request, reason)) {
            leftEngine();
            dispatcher.postResult(op, OpState.RESULT_READY);
        }
    }

    private void leftEngine() {
        if (maxInFlight != Integer.MAX_VALUE) {
            inFlight.decrementAndGet();
            startDeferred();
        }
    }

    // ---------------------------------------------------------------- leadership

    /** Takes leadership for the calling thread if this processor is shared and has no leader. Lock held. */
    boolean tryAcquireLeadershipLocked() {
        if (mode == LeaderMode.DEDICATED || leader != null) {
            return false;
        }
        leader = Thread.currentThread();
        return true;
    }

    /** Gives leadership up. Lock held. */
    void releaseLeadershipLocked() {
        leader = null;
    }

    /** Interrupts the shared leader's wait if there is one (so it comes back to the queue). Lock held. */
    boolean interruptIfLeading() {
        if (mode == LeaderMode.SHARED && leader != null) {
            interrupt.interrupt();
            return true;
        }
        return false;
    }

    /**
     * One leader turn (seed §7.6): wait for completions up to {@code waitNanos} (negative = until one or an
     * interrupt) and move them to the dispatcher's queue. Called without the dispatcher lock.
     *
     * @return number of results queued
     */
    int lead(long waitNanos) {
        interrupt.onLeaderActivated();
        try {
            waitStrategy.prepareToWait();
            try {
                waitStrategy.waitFor(waitNanos);
            } catch (IOException e) {
                Dispatcher.LOG.warn("{}: wait failed, retrying", name, e);
            }
            return collect();
        } finally {
            interrupt.onLeaderDeactivated();
        }
    }

    private int collect() {
        int n = 0;
        dispatcher.lock();
        try {
            for (IoRequest r = waitStrategy.nextCompleted(); r != null; r = waitStrategy.nextCompleted()) {
                ChannelOp op = (ChannelOp) r.owner();
                dispatcher.enqueueLocked(op, OpState.RESULT_READY);
                n++;
            }
            if (n > 0 && mode == LeaderMode.DEDICATED) {
                // The dedicated leader never dispatches (seed: NOTIFY_FOLLOWER). With a second processor there
                // may be no follower, only a pool thread leading the other, shared processor: interrupt it then.
                dispatcher.notifyFromDedicatedLeaderLocked();
            }
        } finally {
            dispatcher.unlock();
        }
        if (maxInFlight != Integer.MAX_VALUE && n > 0) {
            inFlight.addAndGet(-n);
            startDeferred();
        }
        return n;
    }

    // ---------------------------------------------------------------- dedicated leader thread

    /**
     * Starts the permanent leader thread of a dedicated processor; no-op for shared ones and when already
     * started. Called under the demultiplexor's life-cycle lock.
     */
    void startDedicatedLeader(String threadName) {
        if (mode != LeaderMode.DEDICATED || dedicatedThread != null) {
            return;
        }
        Thread t = new Thread(this::runDedicatedLeader, threadName);
        t.setDaemon(true);
        dedicatedThread = t;
        t.start();
    }

    private void runDedicatedLeader() {
        leader = Thread.currentThread();
        try {
            while (!dedicatedStopped) {
                try {
                    lead(-1);
                } catch (RuntimeException e) {
                    if (dedicatedStopped) {
                        break;
                    }
                    Dispatcher.LOG.error("{}: dedicated leader failed, continuing", name, e);
                }
            }
        } finally {
            leader = null;
        }
    }

    /** Stops the dedicated leader thread and waits for it. */
    void stopDedicatedLeader() throws InterruptedException {
        Thread t = dedicatedThread;
        if (t == null) {
            return;
        }
        dedicatedStopped = true;
        interrupt.interrupt();
        if (t != Thread.currentThread()) {
            t.join();
        }
    }

    /**
     * At close, after the pool threads and the dedicated leader stopped: lets the engine finish what still runs
     * on its own threads ({@link Engine#quiesce()}), then queues every completion left, so each operation is
     * dispatched exactly once. Skipped if a user thread still leads this processor (it queues them itself).
     */
    void collectAtClose() throws InterruptedException {
        engine.quiesce();
        dispatcher.lock();
        try {
            if (leader != null) {
                return;
            }
            leader = Thread.currentThread();
        } finally {
            dispatcher.unlock();
        }
        try {
            lead(0);
        } finally {
            dispatcher.lock();
            try {
                leader = null;
            } finally {
                dispatcher.unlock();
            }
        }
    }

    @Override
    public String toString() {
        return name + "[" + engine.name() + "/" + waitStrategy.name() + ", " + mode.configName() + "]";
    }
}
