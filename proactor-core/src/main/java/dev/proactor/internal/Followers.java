package dev.proactor.internal;

import dev.proactor.NotifyLevel;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads of a {@link Dispatcher} sleeping as followers, and how posted work wakes them: a follower not
 * already being woken, or, when none sleeps and the post is STRONG, a leader interrupted out of its wait.
 *
 * <p>Thread-safety: guarded by the dispatcher's lock, held for every method; {@link #followLocked} releases it
 * while the thread sleeps (the seed's unlock point 2). With the lock held nothing is called out of this class but
 * the (non-blocking) interrupt strategy, through {@link Leadership#interruptOneLocked()}.
 */
final class Followers {

    private final Dispatcher dispatcher;
    private final ReentrantLock lock;
    private final OpQueue completed;
    private final Condition followerWake;
    /** Threads sleeping as followers. */
    private int followers;
    /** Signals sent to followers that have not yet woken. */
    private int pendingWakeups;

    /** The followers of {@code dispatcher}, asleep on a condition of its {@code lock}, woken for {@code completed}. */
    Followers(Dispatcher dispatcher, ReentrantLock lock, OpQueue completed) {
        this.dispatcher = dispatcher;
        this.lock = lock;
        this.completed = completed;
        this.followerWake = lock.newCondition();
    }

    /**
     * Sleeps as a follower until woken, for at most {@code waitNanos} (negative: no limit).
     *
     * @param pool whether the thread ignores an interrupt (a pool thread) instead of leaving
     * @return false if the thread was interrupted and leaves its loop (interrupt status set again)
     */
    boolean followLocked(long waitNanos, boolean pool) {
        followers++;
        try {
            if (waitNanos < 0) {
                followerWake.await(); // Unlock point 2
            } else {
                followerWake.awaitNanos(waitNanos);
            }
        } catch (InterruptedException e) {
            if (!pool) {
                Thread.currentThread().interrupt();
                return false;
            }
        } finally {
            followers--;
            if (pendingWakeups > 0) {
                pendingWakeups--;
            }
        }
        return true;
    }

    /** Whether a thread waits on the follower condition (it may have been interrupted since). Lock held; tests. */
    boolean hasConditionWaitersLocked() {
        return lock.hasWaiters(followerWake);
    }

    /** Whether a follower sleeps that is not already being woken. */
    boolean canWakeLocked() {
        return followers - pendingWakeups > 0;
    }

    /** Wakes a follower unless {@code level} is NONE, or if none sleeps and it is STRONG interrupts a leader. */
    void notifyLocked(NotifyLevel level) {
        if (level == NotifyLevel.NONE) {
            return;
        }
        if (wakeFollowerLocked()) {
            return;
        }
        if (level == NotifyLevel.STRONG) {
            dispatcher.leadership.interruptOneLocked();
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
            dispatcher.totals.countHandOff();
            OperationEvents.leaderHandOff(followers, completed.size());
            return true;
        }
        return false;
    }

    /** Wakes every follower (the dispatcher stops). */
    void wakeAllLocked() {
        followerWake.signalAll();
    }
}
