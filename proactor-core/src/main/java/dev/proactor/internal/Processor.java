package dev.proactor.internal;

import dev.proactor.LeaderMode;
import dev.proactor.OpState;
import dev.proactor.spi.Engine;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;

/**
 * Drives one engine (the seed's AIO_Processor, §7): starts operations or defers them when the maximum in
 * flight is reached, cancels them ({@link EngineStarter}, with the in-flight limit and the deferred operations in
 * {@link DeferredStarts}), and, in its leader thread, waits with the engine's wait strategy and moves completed
 * results to the dispatcher's queue.
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
public final class Processor {

    private final String name;
    private final Engine engine;
    private final WaitStrategy waitStrategy;
    private final InterruptStrategy interrupt;
    private final Dispatcher dispatcher;
    private final LeaderMode mode;
    /** Starts and cancels operations in {@link #engine}. */
    private final EngineStarter starter;
    /** The starter's in-flight limit and deferred operations: a collect frees slots, a lead retries soon. */
    private final DeferredStarts deferred;

    /**
     * Longest leader wait while operations are deferred: an engine that answered DEFERRED may get room without a
     * completion of its own (its queue was submitted, a resource of another process was freed), so the leader
     * looks again at least this often instead of waiting for a completion that may never come.
     */
    static final long DEFERRED_RETRY_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);

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
        boolean interruptOnStart = engine.startInterruptsLeader();
        int limit = configuredMaxInFlight <= 0 ? Integer.MAX_VALUE : configuredMaxInFlight;
        this.starter = new EngineStarter(this, name, engine, interrupt, dispatcher, interruptOnStart,
                Math.min(limit, engine.maxInFlight()));
        this.deferred = starter.deferred;
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

    // ---------------------------------------------------------------- start and cancel (EngineStarter)

    /**
     * Starts {@code op}, which just became the active operation of its direction: fails it at once if it is
     * marked aborted, else tries it in the engine, or defers it when the in-flight limit is reached
     * ({@link EngineStarter#start}). Any thread; never with the dispatcher lock.
     */
    void start(ChannelSlot op) {
        starter.start(op);
    }

    /**
     * As {@link #start}, except that an operation the engine completes during this call is handed back for the
     * caller to dispatch on its own thread ({@link EngineStarter#startHandingBack}). Any thread; never with the
     * dispatcher lock.
     *
     * @return the completed operation to dispatch now, or null if it was started (or completed) as usual
     */
    ChannelSlot startHandingBack(ChannelSlot op) {
        return starter.startHandingBack(op);
    }

    /**
     * Cancels the use of {@code op} that its direction marked with {@code reason}, if it is deferred or pending in
     * the engine ({@link EngineStarter#cancel}; through {@link ChannelDirection.Marked#cancel}). Any thread.
     */
    void cancel(ChannelSlot op, Throwable reason) {
        starter.cancel(op, reason);
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

    /**
     * The thread currently leading, or null: a start interrupts its wait unless it is the caller
     * ({@link EngineStarter}). Any thread.
     */
    Thread leader() {
        return leader;
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
        if (deferred.hasDeferred() && (waitNanos < 0 || waitNanos > DEFERRED_RETRY_NANOS)) {
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
                ChannelSlot op = (ChannelSlot) r.owner();
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
        deferred.requestsLeftEngine(n);
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
