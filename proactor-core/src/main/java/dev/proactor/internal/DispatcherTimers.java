package dev.proactor.internal;

import dev.proactor.NotifyLevel;
import dev.proactor.OpState;
import java.util.function.LongSupplier;

/**
 * The timers of a {@link Dispatcher}: the timer heap and its clock, where {@link TimerSlot}s are scheduled, posted
 * and cancelled, and from which the dispatcher's loop moves due timers to its completion queue.
 *
 * <p>Thread-safety: any thread. The state is guarded by the dispatcher's lock, which the methods ending in
 * {@code Locked} expect held and the others take themselves; {@link #timerNow()} reads the clock without it. With
 * the lock held nothing is called out of this class but the dispatcher's queueing and notification.
 */
final class DispatcherTimers {

    private final Dispatcher dispatcher;
    private final OpQueue completed;
    private final TimerQueue timers = new TimerQueue();
    /**
     * The timer queue's clock in nanoseconds: {@code System::nanoTime}, replaced only by model-checking tests
     * (under Lincheck time stands still, so no timer would ever be due). Volatile: operation timeouts read it
     * without the lock ({@link #timerNow()}).
     */
    private volatile LongSupplier timerClock = System::nanoTime;
    /** Timers scheduled since the start ({@link #timerSchedules()}). Lock held. */
    private long timerSchedules;
    /** Set by {@link #stopTimers()}: no timer is scheduled, posted or fired any more. */
    private boolean timersStopped;

    /** The timers of {@code dispatcher}, guarded by its lock, queueing due ones to its {@code completed} queue. */
    DispatcherTimers(Dispatcher dispatcher, OpQueue completed) {
        this.dispatcher = dispatcher;
        this.completed = completed;
    }

    /** Queues a user completion ({@code post}). */
    void post(TimerSlot op, NotifyLevel level) {
        dispatcher.lock();
        try {
            checkTimersRunning();
            timers.remove(op);
            op.posted = true;
            if (op.queue != completed) {
                op.state = OpState.POSTED;
                dispatcher.queueLocked(op);
            }
            dispatcher.followers.notifyLocked(level);
        } finally {
            dispatcher.unlock();
        }
    }

    /** Replaces the timer queue's clock (tests only: see {@link #timerClock}). */
    void useTimerClock(LongSupplier clock) {
        dispatcher.lock();
        try {
            timerClock = clock;
        } finally {
            dispatcher.unlock();
        }
    }

    void schedule(TimerSlot t, long delayNanos, Object attachment) {
        scheduleAt(t, timerNow() + Math.min(delayNanos, Long.MAX_VALUE / 4), attachment);
    }

    /**
     * Schedules {@code t} to fire at {@code deadline} on the timer clock ({@link #timerNow()}), replacing any
     * earlier schedule or posting of it.
     *
     * @throws IllegalStateException if the demultiplexor is closed
     */
    void scheduleAt(TimerSlot t, long deadline, Object attachment) {
        dispatcher.lock();
        try {
            checkTimersRunning();
            timers.remove(t);
            completed.remove(t);
            t.posted = false;
            t.attachment = attachment;
            t.state = OpState.STARTED;
            timers.add(t, deadline);
            timerSchedules++;
            if (timers.firstDeadline() == deadline) {
                // A new earliest deadline: whoever sleeps or waits must recompute its timeout.
                dispatcher.followers.notifyLocked(NotifyLevel.STRONG);
            }
        } finally {
            dispatcher.unlock();
        }
    }

    /** The timer clock: {@link System#nanoTime()} unless a test replaced it. Any thread, no lock. */
    long timerNow() {
        return timerClock.getAsLong();
    }

    /** Timers scheduled since the demultiplexor opened (tests: how often operation timeouts take the lock). */
    long timerSchedules() {
        dispatcher.lock();
        try {
            return timerSchedules;
        } finally {
            dispatcher.unlock();
        }
    }

    /** Timers in the queue, not yet due (tests). */
    int timerCount() {
        dispatcher.lock();
        try {
            return timers.size();
        } finally {
            dispatcher.unlock();
        }
    }

    boolean cancel(TimerSlot t) {
        dispatcher.lock();
        try {
            if (timers.remove(t) || completed.remove(t)) {
                t.state = OpState.INITIALIZED;
                return true;
            }
            return false;
        } finally {
            dispatcher.unlock();
        }
    }

    private void checkTimersRunning() {
        if (timersStopped) {
            throw new IllegalStateException("demultiplexor is closed");
        }
    }

    /** Moves due timers to the completion queue. Lock held. */
    void expireTimersLocked() {
        if (timers.isEmpty()) {
            return;
        }
        long now = timerClock.getAsLong();
        for (TimerSlot t = timers.pollExpired(now); t != null; t = timers.pollExpired(now)) {
            t.state = OpState.POSTED;
            dispatcher.queueLocked(t);
        }
    }

    /** Nanoseconds until the earliest timer (at least 0), or -1 when there is none. Lock held. */
    long nanosToNextTimerLocked() {
        if (timers.isEmpty()) {
            return -1;
        }
        return Math.max(0, timers.firstDeadline() - timerClock.getAsLong());
    }

    /** First step of close: pending timers are dropped, queued ones too, and no timer is scheduled or posted. */
    void stopTimers() {
        dispatcher.lock();
        try {
            timersStopped = true;
            timers.clear();
            OpSlot op = completed.peek();
            while (op != null) {
                OpSlot next = op.next;
                if (op instanceof TimerSlot t && !t.posted) { // posted completions are dispatched at close
                    completed.remove(t);
                    t.state = OpState.INITIALIZED;
                }
                op = next;
            }
        } finally {
            dispatcher.unlock();
        }
    }
}
