package dev.proactor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader/follower dispatcher (seed §4, §6): owns the completion queue and the timer heap, decides for each
 * thread in {@link #handleEvents} whether it dispatches completions, leads a processor, or sleeps as a
 * follower, and wakes followers or interrupts leaders when work is posted.
 *
 * <p>Locking: one lock guards the completion queue, the timers and the thread counts. It is released while a
 * completion is dispatched, while a follower sleeps and while a leader waits (the seed's three unlock points).
 * Lock order everywhere: channel direction, then engine, then this lock; nothing is called out of this class
 * while the lock is held except the (non-blocking) interrupt strategy.
 */
final class Dispatcher {

    static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /** The dispatcher whose {@code handleEvents} the current thread is in, to post without needless wake-ups. */
    private static final ThreadLocal<Dispatcher> CURRENT = new ThreadLocal<>();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition followerWake = lock.newCondition();
    private final OpQueue completed = new OpQueue();
    private final TimerQueue timers = new TimerQueue();
    private Processor[] processors = new Processor[0];

    /** Threads sleeping as followers. */
    private int followers;
    /** Signals sent to followers that have not yet woken. */
    private int pendingWakeups;
    /** Set by {@link #stop()}: threads leave {@code handleEvents} once the queue is empty. */
    private volatile boolean stopping;

    void setProcessors(Processor... processors) {
        this.processors = processors.clone();
    }

    Processor[] processors() {
        return processors;
    }

    /** Whether the current thread is inside {@link #handleEvents} of this dispatcher. */
    boolean isDispatcherThread() {
        return CURRENT.get() == this;
    }

    // ---------------------------------------------------------------- posting

    /**
     * Queues an I/O result from the thread that started or cancelled it. Inside a callback of this
     * dispatcher the thread itself will dispatch it after the callback, so a follower is woken only when there
     * is more than that thread can take at once; from any other thread the post is STRONG.
     */
    void postResult(ChannelOp op, OpState state) {
        lock.lock();
        try {
            op.state = state;
            completed.add(op);
            if (isDispatcherThread()) {
                if (completed.size() > 1) {
                    wakeFollowerLocked();
                }
            } else {
                notifyLocked(NotifyLevel.STRONG);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Queues a user completion ({@code post}). */
    void post(OpTimer op, NotifyLevel level) {
        lock.lock();
        try {
            checkNotStopping();
            timers.remove(op);
            if (op.queue != completed) {
                op.state = OpState.POSTED;
                completed.add(op);
            }
            notifyLocked(level);
        } finally {
            lock.unlock();
        }
    }

    /** Queues results a leader collected (called by a processor with the lock held via {@link #lock()}). */
    void enqueueLocked(Op op, OpState state) {
        op.state = state;
        completed.add(op);
    }

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    private void notifyLocked(NotifyLevel level) {
        if (level == NotifyLevel.NONE) {
            return;
        }
        if (wakeFollowerLocked()) {
            return;
        }
        if (level == NotifyLevel.STRONG) {
            interruptOneLeaderLocked();
        }
    }

    /**
     * A dedicated leader queued results: wake a follower to dispatch them, or if none sleeps, interrupt a shared
     * leader of another processor so it comes back to the queue. Lock held.
     */
    void notifyFromDedicatedLeaderLocked() {
        notifyLocked(NotifyLevel.STRONG);
    }

    /** Wakes one sleeping follower not already being woken; returns whether there was one. */
    boolean wakeFollowerLocked() {
        if (followers - pendingWakeups > 0) {
            pendingWakeups++;
            followerWake.signal();
            return true;
        }
        return false;
    }

    private void interruptOneLeaderLocked() {
        for (Processor p : processors) {
            if (p.interruptIfLeading()) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- timers

    void schedule(OpTimer t, long delayNanos, Object attachment) {
        lock.lock();
        try {
            checkNotStopping();
            timers.remove(t);
            completed.remove(t);
            t.attachment = attachment;
            long deadline = System.nanoTime() + Math.min(delayNanos, Long.MAX_VALUE / 4);
            t.state = OpState.STARTED;
            timers.add(t, deadline);
            if (timers.firstDeadline() == deadline) {
                // A new earliest deadline: whoever sleeps or waits must recompute its timeout.
                notifyLocked(NotifyLevel.STRONG);
            }
        } finally {
            lock.unlock();
        }
    }

    boolean cancel(OpTimer t) {
        lock.lock();
        try {
            if (timers.remove(t) || completed.remove(t)) {
                t.state = OpState.INITIALIZED;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void checkNotStopping() {
        if (stopping) {
            throw new IllegalStateException("demultiplexor is closed");
        }
    }

    /** Moves due timers to the completion queue; returns how many. Lock held. */
    private int expireTimersLocked() {
        if (timers.isEmpty()) {
            return 0;
        }
        long now = System.nanoTime();
        int n = 0;
        for (OpTimer t = timers.pollExpired(now); t != null; t = timers.pollExpired(now)) {
            t.state = OpState.POSTED;
            completed.add(t);
            n++;
        }
        return n;
    }

    /** Nanoseconds until the earliest timer (at least 0), or -1 when there is none. Lock held. */
    private long nanosToNextTimerLocked() {
        if (timers.isEmpty()) {
            return -1;
        }
        return Math.max(0, timers.firstDeadline() - System.nanoTime());
    }

    // ---------------------------------------------------------------- the loop

    /**
     * Dispatches completions, leads a processor or sleeps as follower until at least one completion was
     * dispatched and the queue is empty, the timeout expires, or the dispatcher stops.
     *
     * @param timeoutNanos negative for no timeout
     * @return number of completions dispatched
     */
    int handleEvents(long timeoutNanos) {
        Dispatcher previous = CURRENT.get();
        CURRENT.set(this);
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        int dispatched = 0;
        lock.lock();
        try {
            for (;;) {
                // Step 1: the completion queue (and due timers) first.
                expireTimersLocked();
                Op op = completed.poll();
                if (op != null) {
                    if (!completed.isEmpty()) {
                        wakeFollowerLocked(); // more than this thread can take at once: get help
                    }
                    op.state = OpState.COMPLETED;
                    lock.unlock(); // Unlock point 1
                    try {
                        dispatch(op);
                    } finally {
                        lock.lock();
                    }
                    dispatched++;
                    continue;
                }
                if (dispatched > 0 || stopping) {
                    return dispatched;
                }
                long remaining = timeoutNanos < 0 ? -1 : deadline - System.nanoTime();
                if (timeoutNanos >= 0 && remaining <= 0) {
                    return 0;
                }
                long waitNanos = minTimeout(remaining, nanosToNextTimerLocked());

                // Step 2: try to lead a processor.
                Processor leadable = null;
                for (Processor p : processors) {
                    if (p.tryAcquireLeadershipLocked()) {
                        leadable = p;
                        break;
                    }
                }
                if (leadable != null) {
                    lock.unlock(); // Unlock point 3 (inside lead: the wait)
                    try {
                        leadable.lead(waitNanos);
                    } finally {
                        lock.lock();
                        leadable.releaseLeadershipLocked();
                        if (!completed.isEmpty()) {
                            // This thread dispatches what it found; a follower takes over the leadership.
                            wakeFollowerLocked();
                        }
                    }
                    continue;
                }

                // Step 3: follow.
                followers++;
                try {
                    if (waitNanos < 0) {
                        followerWake.await(); // Unlock point 2
                    } else {
                        followerWake.awaitNanos(waitNanos);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return dispatched;
                } finally {
                    followers--;
                    if (pendingWakeups > 0) {
                        pendingWakeups--;
                    }
                }
            }
        } finally {
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

    private static void dispatch(Op op) {
        try {
            op.dispatch();
        } catch (Throwable t) {
            op.onHandlerFailure(t);
            if (t instanceof VirtualMachineError vme) {
                op.afterDispatch();
                throw vme;
            }
        }
        op.afterDispatch();
    }

    // ---------------------------------------------------------------- life cycle

    /** Makes every thread leave {@link #handleEvents} once the queue is empty; pending timers are dropped. */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            timers.clear();
            followerWake.signalAll();
            for (Processor p : processors) {
                p.interruptIfLeading();
            }
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

    /** Dispatches whatever is queued, in the calling thread (used at close, after the pool has stopped). */
    void drainQueue() {
        Dispatcher previous = CURRENT.get();
        CURRENT.set(this);
        try {
            for (;;) {
                Op op;
                lock.lock();
                try {
                    op = completed.poll();
                    if (op == null) {
                        return;
                    }
                    op.state = OpState.COMPLETED;
                } finally {
                    lock.unlock();
                }
                dispatch(op);
            }
        } finally {
            CURRENT.set(previous); // not remove(): the pool re-enters at once, and set() after remove() allocates
        }
    }
}
