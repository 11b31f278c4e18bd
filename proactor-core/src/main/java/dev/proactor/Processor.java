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
 * wakes followers for every batch it queues. Owner mode: the first own thread to lead is the only leader for the
 * processor's life ({@link LeaderMode#OWNER}); before it exits it collects what is left in its engine
 * ({@link #finishIfOwner()}), as no other thread may wait in that engine.
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

    /**
     * Longest leader wait while operations are deferred: an engine that answered DEFERRED may get room without a
     * completion of its own (its queue was submitted, a resource of another process was freed), so the leader
     * looks again at least this often instead of waiting for a completion that may never come.
     */
    static final long DEFERRED_RETRY_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);

    /** Maximum operations in the engine at once; {@link Integer#MAX_VALUE} means no counting at all. */
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Operations waiting for a free slot (or for an engine that said DEFERRED); guarded by synchronizing on it. */
    private final OpQueue deferred = new OpQueue();
    private volatile int deferredCount;
    /** Requests to drain {@link #deferred}; the thread that raises it from 0 drains (see {@link #startDeferred}). */
    private final AtomicInteger drainers = new AtomicInteger();

    /** The thread currently leading, or null. Written under the dispatcher lock. */
    private volatile Thread leader;
    /** Owner mode: the only thread that ever leads, once one has. Written under the dispatcher lock. */
    private Thread owner;
    /** {@link #collectAtClose()} ran: the engine has nothing left in flight. Guarded by the dispatcher lock. */
    private boolean collected;
    private Thread dedicatedThread;
    /** Poll-gap histogram, or null when statistics are off; {@link #lastWaitEnd} is the leader's. */
    private LatencyRecorder pollGap;
    private long lastWaitEnd;
    private volatile boolean dedicatedStopped;
    /** The pool's handlers return promptly: a leader's turn in the engine lasts until {@link #ownThreadAway()}. */
    private boolean turnsOutliveLeads;

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

    /**
     * The pool threads' handlers return promptly ({@link ProactorConfig#promptHandlers()}): a leader of ours stays
     * in its engine turn while it dispatches, until {@link #ownThreadAway()} (before any thread leads).
     */
    void keepTurnsWhileDispatching() {
        turnsOutliveLeads = true;
    }

    /**
     * The calling thread, one of the demultiplexor's own, stops dispatching (it waits as a follower or leaves its
     * loop): ends its engine turn when turns outlive leads ({@link WaitStrategy#leaderAway()}).
     */
    void ownThreadAway() {
        if (turnsOutliveLeads) {
            waitStrategy.leaderAway();
        }
    }

    /** Turns poll-gap recording on (before any thread leads). */
    void recordPollGap(LatencyRecorder recorder) {
        this.pollGap = recorder;
    }

    LeaderMode mode() {
        return mode;
    }

    boolean supports(OpKind kind) {
        return engine.supports(kind);
    }

    // ---------------------------------------------------------------- start and cancel

    /**
     * Starts {@code op}, which just became the active operation of its direction: fails it at once if it is
     * marked aborted, else tries it in the engine, or defers it when the in-flight limit is reached. Any
     * thread; never with the dispatcher lock.
     */
    void start(ChannelOp op) {
        if (op.abortReason != null) {
            failUnstarted(op);
            return;
        }
        if (maxInFlight == Integer.MAX_VALUE) {
            startInEngine(op);
            return;
        }
        if (inFlight.incrementAndGet() <= maxInFlight) {
            startInEngine(op);
            return;
        }
        inFlight.decrementAndGet();
        defer(op, false);
        startDeferred(); // a slot may have been freed between our failed increment and the add
    }

    private void defer(ChannelOp op, boolean first) {
        synchronized (deferred) {
            op.state = OpState.DEFERRED;
            if (first) {
                deferred.addFirst(op);
            } else {
                deferred.add(op);
            }
            deferredCount = deferred.size();
        }
        dispatcher.totals.countDeferred();
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
            for (ChannelOp op = pollDeferredWithSlot(); op != null; op = pollDeferredWithSlot()) {
                if (!startInEngine(op)) {
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
    private ChannelOp pollDeferredWithSlot() {
        synchronized (deferred) {
            if (deferred.isEmpty()) {
                return null;
            }
            if (maxInFlight != Integer.MAX_VALUE && inFlight.incrementAndGet() > maxInFlight) {
                inFlight.decrementAndGet();
                return null;
            }
            ChannelOp op = (ChannelOp) deferred.poll();
            deferredCount = deferred.size();
            return op;
        }
    }

    /**
     * Starts {@code op} in the engine; the caller has accounted for its in-flight slot.
     *
     * @return false if the engine deferred it (it is back at the head of the deferred queue)
     */
    private boolean startInEngine(ChannelOp op) {
        if (op.abortReason != null) { // cancelled or closed while it waited for a slot
            // Its slot goes to a deferred operation, as when a request leaves the engine: one deferred while this
            // one held the slot found none free, and no completion may come to retry it.
            leftEngine();
            failUnstarted(op);
            return true;
        }
        return settle(op, startRequest(op));
    }

    /**
     * As {@link #start}, except that an operation the engine completes during this call is handed back, its
     * completion claimed, for the caller to dispatch on its own thread ({@link CallbackChain#dispatchHandedBack}),
     * instead of being queued for the demultiplexor's threads. Only for a channel that asked for it
     * ({@link AsynchChannel#setCompletionsAtStart}); an operation that is aborted, or that waits for an in-flight
     * slot, starts as with {@link #start}. Any thread; never with the dispatcher lock.
     *
     * @return the completed operation to dispatch now, or null if it was started (or completed) as usual
     */
    ChannelOp startHandingBack(ChannelOp op) {
        if (op.abortReason != null || maxInFlight != Integer.MAX_VALUE) {
            start(op);
            return null;
        }
        StartResult result = startRequest(op);
        if (result != StartResult.COMPLETED) {
            settle(op, result);
            return null;
        }
        leftEngine();
        if (!op.claimCompletion()) {
            Dispatcher.LOG.error("{}: {} reported a completion twice; the second one is ignored", name, op);
            return null;
        }
        op.state = op.request.error() == null ? OpState.RESULT_READY : OpState.START_ERROR;
        return op;
    }

    /** Hands {@code op}'s request to the engine; what the engine throws ends the request with it (COMPLETED). */
    private StartResult startRequest(ChannelOp op) {
        op.state = OpState.STARTED;
        IoRequest request = op.request;
        try {
            return engine.start(request);
        } catch (Throwable e) {
            // An engine bug, an unexpected channel state or an Error (e.g. OutOfMemoryError for a buffer) must
            // still end the operation exactly once and free its slot: take it back from the engine in case it was
            // parked before the exception, then complete it with the exception as its error (not rethrown: the
            // caller may be a pool thread or a callback, and the operation reports it).
            failedStart(request, e);
            return StartResult.COMPLETED;
        }
    }

    /**
     * Acts on the engine's answer to a start.
     *
     * @return false if the engine deferred it (it is back at the head of the deferred queue)
     */
    private boolean settle(ChannelOp op, StartResult result) {
        IoRequest request = op.request;
        switch (result) {
            case COMPLETED -> {
                leftEngine();
                complete(op, request.error() == null ? OpState.RESULT_READY : OpState.START_ERROR);
            }
            case PENDING, PENDING_INTERRUPT -> {
                if (interruptOnStart || result == StartResult.PENDING_INTERRUPT) {
                    Thread l = leader;
                    if (l != null && l != Thread.currentThread()) {
                        interrupt.interrupt(); // the leader's wait must take the new interest into account
                    }
                }
                // A cancel or close that ran between "became active" and "parked in the engine" found nothing
                // to cancel: its mark is seen here, after the engine holds the request, and acted on.
                Throwable abort = op.abortReason;
                if (abort != null && engine.cancel(request, abort)) {
                    leftEngine();
                    complete(op, OpState.RESULT_READY);
                }
            }
            case DEFERRED -> {
                releaseSlot();
                defer(op, true);
                if (leader != Thread.currentThread()) {
                    // Nothing may be in the engine to complete and trigger the retry: the leader retries after
                    // every wait while operations are deferred, and its waits are short then (see lead).
                    interrupt.interrupt();
                }
                return false;
            }
        }
        return true;
    }

    /** A start threw {@code e}: takes the request back from the engine if it was parked and fails it. */
    private void failedStart(IoRequest request, Throwable e) {
        if (e instanceof Error) {
            Dispatcher.LOG.error("{}: {} failed to start {}; the operation ends with it", name, engine.name(),
                    request.kind(), e);
        }
        try {
            engine.cancel(request, e);
        } catch (Throwable cancelFailure) {
            e.addSuppressed(cancelFailure);
        }
        request.fail(e);
    }

    /** Completes an operation that never reached the engine with its abort reason. */
    private void failUnstarted(ChannelOp op) {
        op.request.fail(op.abortReason);
        complete(op, OpState.START_ERROR);
    }

    /** Posts the one completion of {@code op}'s current use (see {@link ChannelOp#claimCompletion()}). */
    private void complete(ChannelOp op, OpState state) {
        if (op.claimCompletion()) {
            dispatcher.postResult(op, state);
        } else {
            Dispatcher.LOG.error("{}: {} reported a completion twice; the second one is ignored", name, op);
        }
    }

    /**
     * Cancels the use of {@code op} that its direction marked with {@code reason}, if it is deferred or pending in
     * the engine: it then completes with that reason. An operation that has already completed is left alone (it
     * is dispatched with its result); one not started yet is failed by {@link #start}. If that use has ended and
     * the reused object serves a newer operation (whose mark, if any, is another object), nothing is done; in the
     * narrowest race the newer operation may be cancelled with {@code reason}, but a late cancel never makes an
     * operation complete as a success it did not have. Any thread.
     */
    void cancel(ChannelOp op, Throwable reason) {
        if (op.abortReason != reason) {
            return; // the marked use has been dispatched and recycled since
        }
        if (maxInFlight != Integer.MAX_VALUE || deferredCount > 0) {
            boolean removed;
            synchronized (deferred) {
                removed = deferred.remove(op);
                deferredCount = deferred.size();
            }
            if (removed) {
                failUnstarted(op);
                return;
            }
        }
        if (op.state == OpState.STARTED && op.abortReason == reason && engine.cancel(op.request, reason)) {
            leftEngine();
            complete(op, OpState.RESULT_READY);
        }
    }

    private void releaseSlot() {
        if (maxInFlight != Integer.MAX_VALUE) {
            inFlight.decrementAndGet();
        }
    }

    /** A request left the engine: free its slot and start what waits for one. */
    private void leftEngine() {
        releaseSlot();
        startDeferred();
    }

    // ---------------------------------------------------------------- leadership

    /**
     * Takes leadership for the calling thread if this processor is shared and has no leader, or, in owner mode, if
     * the caller is its owner (the first of the demultiplexor's own threads to get here becomes it). Lock held.
     */
    boolean tryAcquireLeadershipLocked() {
        if (mode == LeaderMode.DEDICATED || leader != null) {
            return false;
        }
        Thread me = Thread.currentThread();
        if (mode == LeaderMode.OWNER && owner != me) {
            if (owner != null || !dispatcher.isOwnThread()) {
                return false;
            }
            owner = me;
        }
        leader = me;
        return true;
    }

    /** Whether this is a shared processor that nobody leads. Lock held. */
    boolean isLeaderlessShared() {
        return mode == LeaderMode.SHARED && leader == null;
    }

    /** Gives leadership up. Lock held. */
    void releaseLeadershipLocked() {
        leader = null;
    }

    /** Interrupts the shared or owner leader's wait if there is one (so it comes back to the queue). Lock held. */
    boolean interruptIfLeading() {
        if (mode != LeaderMode.DEDICATED && leader != null) {
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
        if (deferredCount > 0 && (waitNanos < 0 || waitNanos > DEFERRED_RETRY_NANOS)) {
            waitNanos = DEFERRED_RETRY_NANOS; // an engine said DEFERRED: retry soon even if nothing completes
        }
        interrupt.onLeaderActivated();
        try {
            waitStrategy.prepareToWait();
            if (pollGap != null && lastWaitEnd != 0) {
                pollGap.record(System.nanoTime() - lastWaitEnd); // leaders hand over under the dispatcher lock
            }
            try {
                waitStrategy.waitFor(waitNanos);
            } catch (IOException e) {
                Dispatcher.LOG.warn("{}: wait failed, retrying", name, e);
            }
            if (pollGap != null) {
                lastWaitEnd = System.nanoTime();
            }
            return collect();
        } finally {
            if (!turnsOutliveLeads) {
                waitStrategy.leaderAway(); // handlers may block: the engine must not count on this thread
            }
            interrupt.onLeaderDeactivated();
        }
    }

    private int collect() {
        int n = 0;
        dispatcher.lock();
        try {
            for (IoRequest r = waitStrategy.nextCompleted(); r != null; r = waitStrategy.nextCompleted()) {
                ChannelOp op = (ChannelOp) r.owner();
                if (op.claimCompletion()) {
                    dispatcher.enqueueLocked(op, OpState.RESULT_READY);
                    n++;
                } else {
                    Dispatcher.LOG.error("{}: {} reported a completion twice; the second one is ignored", name, op);
                }
            }
            if (n > 0 && mode == LeaderMode.DEDICATED) {
                // The dedicated leader never dispatches (seed: NOTIFY_FOLLOWER). With a second processor there
                // may be no follower, only a pool thread leading the other, shared processor: interrupt it then.
                dispatcher.followers.notifyFromDedicatedLeaderLocked();
            }
        } finally {
            dispatcher.unlock();
        }
        if (n > 0 && maxInFlight != Integer.MAX_VALUE) {
            inFlight.addAndGet(-n);
        }
        if (n > 0 || deferredCount > 0) {
            startDeferred(); // also after a wait that found nothing: an engine that deferred may have room now
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
        dispatcher.adoptOwnThread();
        leader = Thread.currentThread();
        try {
            while (!dedicatedStopped) {
                Thread.interrupted(); // like pool threads, the leader ignores interrupts: they would make it spin
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
     * At close, after the pool threads and the dedicated leader stopped: takes leadership, lets the engine finish
     * what still runs on its own threads ({@link Engine#quiesce()}, which may reap), then queues every completion
     * left, so each operation is dispatched exactly once. Skipped if a user thread still leads this processor (it
     * queues them itself): only the leader ever reaps.
     */
    void collectAtClose() throws InterruptedException {
        dispatcher.lock();
        try {
            if (leader != null || collected) {
                return;
            }
            collected = true;
            leader = Thread.currentThread();
        } finally {
            dispatcher.unlock();
        }
        try {
            engine.quiesce();
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

    /**
     * An own thread leaves its loop at close: if it owns this processor ({@link LeaderMode#OWNER}), it collects what
     * is left in the engine now ({@link #collectAtClose()}), while it still may wait there. Lock not held.
     */
    void finishIfOwner() throws InterruptedException {
        dispatcher.lock();
        try {
            if (owner != Thread.currentThread()) {
                return;
            }
        } finally {
            dispatcher.unlock();
        }
        collectAtClose();
    }

    @Override
    public String toString() {
        return name + "[" + engine.name() + "/" + waitStrategy.name() + ", " + mode.configName() + "]";
    }
}
