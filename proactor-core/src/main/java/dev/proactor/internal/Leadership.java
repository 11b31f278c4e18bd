package dev.proactor.internal;

import dev.proactor.NotifyLevel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The leading side of a {@link Dispatcher}, as {@link Followers} is the sleeping one: which processor a thread of
 * its loop leads (the first one it may take), one lead of it, and the hand-offs around it (a thread that found
 * completions dispatches them while a follower is woken to take over the leadership; a thread that leaves its loop
 * wakes a follower for the completions it leaves queued or the shared processor it leaves without leader); the
 * round of completions dispatched between two polls (the fairness rule); the interrupts of leading threads (for a
 * STRONG post that found no follower asleep, and at close); and, at close, the wait until nobody leads.
 *
 * <p>Thread-safety: guarded by the dispatcher's lock, which the methods ending in {@code Locked} expect held and
 * {@link #awaitNoLeader()} takes itself; {@link #leadLocked} releases it while the thread waits in the engine (the
 * seed's unlock point 3). With the lock held nothing is called out of this class but the processors' leadership
 * bookkeeping, the (non-blocking) interrupt strategy, an engine's end of turn ({@link Processor#ownThreadAway()},
 * which takes only locks of the engine's own) and the followers' wake-ups. The processors are set once, before any
 * thread runs.
 *
 * <p>Errors: whatever a lead throws propagates to the loop, after the leadership was given up and the round reset
 * with the lock held again, as after a lead that returns. {@link #awaitNoLeader()} throws
 * {@link InterruptedException} when the closing thread is interrupted.
 */
final class Leadership {

    /** Fewest completions dispatched between two polls while the queue never empties. */
    static final int MIN_ROUND = 16;

    private final Dispatcher dispatcher;
    private final ReentrantLock lock;
    private final OpQueue completed;
    private final Followers followers;
    /** Signalled when a thread of the loop stops leading: {@link #awaitNoLeader()} waits on it. */
    private final Condition leaderLeft;
    /** The processors to lead, primary first; set before any thread runs, never modified. */
    private Processor[] processors = new Processor[0];
    /** Completions dispatched since the last poll, and how many make a round. */
    private int sincePoll;
    private int round = MIN_ROUND;

    /**
     * The leadership of {@code dispatcher}'s processors under its {@code lock}; {@code completed} is its queue,
     * which a lead fills, and {@code followers} its sleeping threads.
     */
    Leadership(Dispatcher dispatcher, ReentrantLock lock, OpQueue completed, Followers followers) {
        this.dispatcher = dispatcher;
        this.lock = lock;
        this.completed = completed;
        this.followers = followers;
        this.leaderLeft = lock.newCondition();
    }

    /** The processors to lead, primary first (before any thread runs). */
    void setProcessors(Processor... processors) {
        this.processors = processors.clone();
    }

    /** Whether a round of completions was dispatched since the last poll, so the next one should poll first. */
    boolean roundDoneLocked() {
        return sincePoll >= round;
    }

    /** A completion is about to be dispatched: it counts towards the round. */
    void countDispatchLocked() {
        sincePoll++;
    }

    /**
     * Leads the first shared processor without leader for one wait of up to {@code waitNanos}, then queues what
     * it found. Called and returns with the lock held (released during the wait).
     *
     * @return false if every processor already has a leader
     */
    boolean leadLocked(long waitNanos) {
        Processor leadable = null;
        for (Processor p : processors) {
            if (p.tryAcquireLeadershipLocked()) {
                leadable = p;
                break;
            }
        }
        if (leadable == null) {
            return false;
        }
        lock.unlock(); // Unlock point 3 (inside lead: the wait)
        try {
            leadable.lead(waitNanos);
        } finally {
            lock.lock();
            leadable.releaseLeadershipLocked();
            leaderLeft.signalAll();
            sincePoll = 0;
            round = Math.max(MIN_ROUND, completed.size());
            if (!completed.isEmpty()) {
                // This thread dispatches what it found; a follower takes over the leadership.
                followers.wakeFollowerLocked();
            }
        }
        return true;
    }

    /**
     * The calling thread stops dispatching for a while (it waits as a follower, or leaves its loop): if it is one
     * of ours, every processor's engine stops counting on it to come back and wait (see
     * {@link Processor#ownThreadAway()}). Lock held; the engines only take locks of their own.
     */
    void ownThreadAwayLocked() {
        if (dispatcher.isOwnThread()) {
            for (Processor p : processors) {
                p.ownThreadAway();
            }
        }
    }

    /**
     * A thread leaves its loop (timeout, interrupt, exception): completions it leaves queued get a follower or,
     * if none sleeps, an interrupted leader; a shared processor it leaves without leader gets a follower.
     */
    void passOnLocked() {
        if (dispatcher.isStopping()) {
            return;
        }
        if (!completed.isEmpty()) {
            followers.notifyLocked(NotifyLevel.STRONG);
            return;
        }
        if (!followers.canWakeLocked()) {
            return;
        }
        for (Processor p : processors) {
            if (p.isLeaderlessShared()) {
                followers.wakeFollowerLocked();
                return;
            }
        }
    }

    /** Interrupts the wait of the first shared or owner leader found, if any (a STRONG post that woke nobody). */
    void interruptOneLocked() {
        for (Processor p : processors) {
            if (p.interruptIfLeading()) {
                return;
            }
        }
    }

    /** Interrupts the wait of every shared or owner leader; returns whether there was one. */
    boolean interruptAllLocked() {
        boolean leading = false;
        for (Processor p : processors) {
            leading |= p.interruptIfLeading();
        }
        return leading;
    }

    /**
     * After {@link Dispatcher#stop()}: waits until no thread leads a processor any more, shared or owned (a user
     * thread may still be inside a wait), so that the engines can be closed under nobody.
     */
    void awaitNoLeader() throws InterruptedException {
        lock.lock();
        try {
            while (interruptAllLocked()) {
                leaderLeft.await(10, TimeUnit.MILLISECONDS); // re-interrupts in case a wait began after ours
            }
        } finally {
            lock.unlock();
        }
    }
}
