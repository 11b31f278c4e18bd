package dev.proactor;

import dev.proactor.internal.Dispatcher;
import dev.proactor.internal.TimerSlot;
import java.util.concurrent.TimeUnit;

/**
 * A reusable timer and user completion (the seed's "post-completed" result): scheduled after a delay with
 * {@link #schedule}, or posted at once with {@link Demultiplexor#post(OpTimer, NotifyLevel)}, it is dispatched
 * to {@link AsynchHandler#onTimerCompleted(OpTimer)} by an idle demultiplexor thread; there is no timer thread.
 *
 * <p>Timers due at the same time fire in the order they were scheduled. A timer is pending from
 * {@code schedule}/{@code post} until its callback begins; {@link #cancel()} of a pending timer guarantees the
 * callback does not run. At {@link Demultiplexor#close()} scheduled timers are dropped (due or not), while a
 * completion posted before the close is still dispatched, once. Scheduling a pending timer again moves it. All methods are thread-safe; the same
 * object is reused for every schedule, so timers allocate nothing in the steady state.
 */
public final class OpTimer extends Op {

    /** This timer's state, which the dispatcher reads and writes. */
    final TimerSlot slot;

    OpTimer(Dispatcher dispatcher, AsynchHandler handler) {
        this.slot = new TimerSlot(dispatcher, this, handler);
    }

    @Override
    TimerSlot slot() {
        return slot;
    }

    /** The handler this timer is dispatched to. */
    public AsynchHandler getHandler() {
        return slot.handler();
    }

    /**
     * Schedules (or reschedules) this timer to be dispatched after {@code delay}.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     * @throws IllegalStateException    if the demultiplexor is closed
     */
    public void schedule(long delay, TimeUnit unit) {
        schedule(delay, unit, slot.attachment());
    }

    /** As {@link #schedule(long, TimeUnit)}, replacing the attachment. */
    public void schedule(long delay, TimeUnit unit, Object attachment) {
        if (delay < 0) {
            throw new IllegalArgumentException("negative delay: " + delay);
        }
        slot.schedule(unit.toNanos(delay), attachment);
    }

    /**
     * Cancels the timer if it is pending.
     *
     * @return {@code true} if it was pending and will now not be dispatched
     */
    public boolean cancel() {
        return slot.cancel();
    }

    /** Whether the timer is scheduled or posted and its callback has not begun. */
    public boolean isPending() {
        return slot.isPending();
    }

    @Override
    public String toString() {
        return slot.toString();
    }
}
