package dev.proactor.internal;

import dev.proactor.NotifyLevel;
import dev.proactor.OpState;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader/follower dispatcher (seed §4, §6): owns the completion queue and the timer heap
 * ({@link DispatcherTimers}), decides for each thread in its loop whether it dispatches completions
 * ({@link CallbackChain}), leads a processor ({@link Leadership}), or sleeps as a follower, and wakes followers or
 * interrupts leaders when work is posted ({@link Followers}).
 *
 * <p><b>Rules it keeps</b> (see docs/semantics.md):
 * <ul>
 *   <li><i>Leadership passes on.</i> A thread that leaves the loop for any reason (timeout, interrupt,
 *       exception) wakes a follower when a shared processor is left without leader, so pending I/O is always
 *       polled while threads wait.</li>
 *   <li><i>A zero or short timeout still polls.</i> {@code handleEvents} with a timeout that has run out polls
 *       the I/O once without blocking (if no other thread leads) before it returns.</li>
 *   <li><i>Fairness.</i> While completions keep coming without a poll (operations completing at start), a
 *       thread polls again without blocking once it has dispatched a round of them (the number queued after the
 *       previous poll, at least {@link Leadership#MIN_ROUND}): what the poll finds goes to the tail of the queue, so
 *       every session gets its turn.</li>
 *   <li><i>Interrupts.</i> Pool threads clear and ignore their interrupt status (a handler that restores it
 *       cannot make them spin); a user thread in {@code handleEvents} returns when interrupted, with the
 *       status still set.</li>
 *   <li><i>Handler failures stay in the handler.</i> Any {@link Throwable} from a callback goes to
 *       {@link OpSlot#onHandlerFailure}; the thread goes on.</li>
 *   <li><i>Close.</i> {@link DispatcherTimers#stopTimers()} drops scheduled timers, due ones too (posted
 *       completions stay queued and are dispatched); {@link #stop()} makes threads leave once the queue is empty;
 *       {@link #drainAndTerminate()} dispatches what is left; after it, a completion posted from outside a
 *       dispatcher loop is dispatched at once by the posting thread.</li>
 * </ul>
 *
 * <p>Locking: one lock guards the completion queue, the timers and the thread counts. It is released while a
 * completion is dispatched, while a follower sleeps and while a leader waits (the seed's three unlock points).
 * Lock order everywhere: channel direction, then engine, then this lock; nothing is called out of this class and
 * its parts while the lock is held except the (non-blocking) interrupt strategy.
 */
public final class Dispatcher {

    static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /** The dispatcher whose loop the current thread is in, to post without needless wake-ups. */
    private static final ThreadLocal<Dispatcher> CURRENT = new ThreadLocal<>();
    /** The dispatcher whose own thread (pool thread or dedicated leader) this is, for the thread's whole life. */
    private static final ThreadLocal<Dispatcher> OWN_THREAD = new ThreadLocal<>();

    private final ReentrantLock lock = new ReentrantLock();
    private final OpQueue completed = new OpQueue();
    /** The threads sleeping as followers, and the wake-ups sent to them; guarded by {@link #lock}. */
    final Followers followers = new Followers(this, lock, completed);
    /** The processors the loop's threads lead, the hand-offs and the fairness round; guarded by {@link #lock}. */
    final Leadership leadership = new Leadership(this, lock, completed, followers);
    /** The timer heap, where timers are scheduled, posted and cancelled; guarded by {@link #lock}. */
    final DispatcherTimers timers = new DispatcherTimers(this, completed);
    /** Queue-wait histogram, or null when statistics are off. */
    private LatencyRecorder queueWait;
    /** Always-on totals ({@link dev.proactor.Demultiplexor#getTotals()}); recorded where the lock is already held. */
    final DispatchCounts totals = new DispatchCounts();

    /** Set by {@link #stop()}: threads leave their loop once the queue is empty. */
    private volatile boolean stopping;
    /** Set by {@link #drainAndTerminate()}: no loop runs any more; posts are dispatched by the poster. */
    private boolean terminated;

    void setProcessors(Processor... processors) {
        leadership.setProcessors(processors);
    }

    /** Turns queue-wait recording on (before any thread runs). */
    void recordQueueWait(LatencyRecorder recorder) {
        this.queueWait = recorder;
    }

    /** The always-on totals. */
    public DispatchCounts totals() {
        return totals;
    }

    /** Appends to the completion queue, stamping the time when statistics are on. Lock held. */
    void queueLocked(OpSlot op) {
        if (queueWait != null) {
            op.queuedAtNanos = System.nanoTime();
        }
        completed.add(op);
        totals.queueDepth(completed.size());
    }

    /** Whether the current thread is inside a loop (or the final drain) of this dispatcher. */
    boolean isDispatcherThread() {
        return CURRENT.get() == this;
    }

    // ---------------------------------------------------------------- posting

    /**
     * Queues an I/O result from the thread that started or cancelled it. Inside a loop of this dispatcher the
     * thread itself will dispatch it after its callback, so a follower is woken only when there is more than
     * that thread can take at once; from any other thread the post is STRONG. After termination the posting
     * thread dispatches it (and whatever else is queued) at once.
     */
    void postResult(ChannelSlot op, OpState state) {
        boolean drainHere = false;
        lock.lock();
        try {
            op.state = state;
            queueLocked(op);
            if (isDispatcherThread()) {
                if (completed.size() > 1) {
                    followers.wakeFollowerLocked();
                }
            } else if (terminated) {
                drainHere = true;
            } else {
                followers.notifyLocked(NotifyLevel.STRONG);
            }
        } finally {
            lock.unlock();
        }
        if (drainHere) {
            drainQueue();
        }
    }

    /** Queues results a leader collected (called by a processor with the lock held via {@link #lock()}). */
    void enqueueLocked(OpSlot op, OpState state) {
        op.state = state;
        queueLocked(op);
    }

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    /** Whether a thread waits on the follower condition (tests: see {@link Followers#hasConditionWaitersLocked}). */
    boolean hasConditionWaitersLocked() {
        return followers.hasConditionWaitersLocked();
    }

    // ---------------------------------------------------------------- timers (test hooks; see DispatcherTimers)

    void useTimerClock(LongSupplier clock) {
        timers.useTimerClock(clock);
    }

    long timerSchedules() {
        return timers.timerSchedules();
    }

    int timerCount() {
        return timers.timerCount();
    }

    boolean cancel(TimerSlot t) {
        return timers.cancel(t);
    }

    // ---------------------------------------------------------------- the loop

    /**
     * A user thread's turn ({@link DemultiplexorCore#handleEvents}): dispatches completions, leads a processor or
     * sleeps as follower until at least one completion was dispatched and the queue is empty, the timeout has
     * run out (after one poll without blocking if none was made), the thread is interrupted, or the dispatcher
     * stops.
     *
     * @param timeoutNanos negative for no timeout
     * @return number of completions dispatched
     */
    int handleEvents(long timeoutNanos) {
        return loop(timeoutNanos, false);
    }

    /** A pool thread's loop: runs until the dispatcher stops and the queue is empty. */
    void runPoolThread() {
        loop(-1, true);
    }

    /** Marks the calling thread, made by the demultiplexor for its whole life, as one of this dispatcher's. */
    void adoptOwnThread() {
        OWN_THREAD.set(this);
    }

    /** Whether the calling thread is one of this dispatcher's own (see {@link #adoptOwnThread()}). */
    boolean isOwnThread() {
        return OWN_THREAD.get() == this;
    }

    private int loop(long timeoutNanos, boolean pool) {
        Dispatcher previous = CURRENT.get();
        CURRENT.set(this);
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        int dispatched = 0;
        boolean polled = false;
        lock.lock();
        try {
            for (;;) {
                // Step 1: the completion queue (and due timers) first, with a poll after each round.
                timers.expireTimersLocked();
                OpSlot op = completed.poll();
                if (op != null) {
                    if (leadership.roundDoneLocked() && leadership.leadLocked(0)) {
                        completed.addFirst(op); // what was due before the poll keeps its place
                        polled = true;
                        continue;
                    }
                    leadership.countDispatchLocked();
                    if (!completed.isEmpty()) {
                        followers.wakeFollowerLocked(); // more than this thread can take at once: get help
                    }
                    op.state = OpState.COMPLETED;
                    if (queueWait != null) {
                        queueWait.record(System.nanoTime() - op.queuedAtNanos);
                    }
                    lock.unlock(); // Unlock point 1
                    try {
                        CallbackChain.dispatch(op, totals, pool);
                    } finally {
                        lock.lock();
                    }
                    dispatched++;
                    continue;
                }
                if (stopping || (dispatched > 0 && !pool)) {
                    return dispatched;
                }
                if (pool) {
                    Thread.interrupted(); // pool threads ignore interrupts (a handler may have restored one)
                } else if (Thread.currentThread().isInterrupted()) {
                    return dispatched;
                }
                long remaining = timeoutNanos < 0 ? -1 : Math.max(0, deadline - System.nanoTime());
                if (remaining == 0 && polled) {
                    return dispatched;
                }
                long waitNanos = minTimeout(remaining, timers.nanosToNextTimerLocked());

                // Step 2: lead a processor if one has no leader.
                if (leadership.leadLocked(waitNanos)) {
                    polled = true;
                    continue;
                }
                if (remaining == 0) {
                    return dispatched; // another thread leads, so the I/O is being polled
                }

                // Step 3: follow.
                leadership.ownThreadAwayLocked();
                if (!followers.followLocked(waitNanos, pool)) {
                    return dispatched;
                }
            }
        } finally {
            leadership.passOnLocked();
            leadership.ownThreadAwayLocked();
            lock.unlock();
            CURRENT.set(previous); // not remove(): the pool re-enters at once, and set() after remove() allocates
        }
    }

    private static long minTimeout(long a, long b) {
        if (a < 0) {
            return b;
        }
        if (b < 0) {
            return a;
        }
        return Math.min(a, b);
    }

    // ---------------------------------------------------------------- life cycle

    /** Makes every thread leave its loop once the queue is empty, and no thread take leadership. */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            followers.wakeAllLocked();
            leadership.interruptAllLocked();
        } finally {
            lock.unlock();
        }
    }

    boolean isStopping() {
        return stopping;
    }

    /** Whether completions are waiting. */
    boolean hasQueuedCompletions() {
        lock.lock();
        try {
            return !completed.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Last step of close, after the pool and leaders stopped: dispatches whatever is queued in the calling
     * thread, then marks the dispatcher terminated so that later posts are dispatched by their posting thread.
     */
    void drainAndTerminate() {
        drain(true);
    }

    /** Dispatches whatever is queued in the calling thread (after termination: a late post). */
    private void drainQueue() {
        drain(false);
    }

    private void drain(boolean terminate) {
        Dispatcher previous = CURRENT.get();
        CURRENT.set(this);
        try {
            for (;;) {
                OpSlot op;
                lock.lock();
                try {
                    op = completed.poll();
                    if (op == null) {
                        if (terminate) {
                            terminated = true;
                        }
                        return;
                    }
                    op.state = OpState.COMPLETED;
                } finally {
                    lock.unlock();
                }
                CallbackChain.dispatch(op, totals, false);
            }
        } finally {
            CURRENT.set(previous); // not remove(): the pool re-enters at once, and set() after remove() allocates
        }
    }
}
