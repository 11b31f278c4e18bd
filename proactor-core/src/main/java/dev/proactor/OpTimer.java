package dev.proactor;

import java.util.Objects;
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

    final Dispatcher dispatcher;
    final AsynchHandler handler;

    /** Deadline in {@link System#nanoTime()} units while in the timer heap. */
    long deadline;
    /** Tie-breaker keeping scheduling order for equal deadlines. */
    long sequence;
    /** Position in the timer heap, or -1 when not in it. */
    int heapIndex = -1;
    /** Whether the pending dispatch was asked with {@code post} (kept at close) rather than by a schedule. */
    boolean posted;

    OpTimer(Dispatcher dispatcher, AsynchHandler handler) {
        this.dispatcher = dispatcher;
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** The handler this timer is dispatched to. */
    public AsynchHandler getHandler() {
        return handler;
    }

    /**
     * Schedules (or reschedules) this timer to be dispatched after {@code delay}.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     * @throws IllegalStateException    if the demultiplexor is closed
     */
    public void schedule(long delay, TimeUnit unit) {
        schedule(delay, unit, attachment);
    }

    /** As {@link #schedule(long, TimeUnit)}, replacing the attachment. */
    public void schedule(long delay, TimeUnit unit, Object attachment) {
        if (delay < 0) {
            throw new IllegalArgumentException("negative delay: " + delay);
        }
        dispatcher.timers.schedule(this, unit.toNanos(delay), attachment);
    }

    /**
     * Cancels the timer if it is pending.
     *
     * @return {@code true} if it was pending and will now not be dispatched
     */
    public boolean cancel() {
        return dispatcher.timers.cancel(this);
    }

    /** Whether the timer is scheduled or posted and its callback has not begun. */
    public boolean isPending() {
        OpState s = state;
        return s == OpState.STARTED || s == OpState.POSTED;
    }

    @Override
    void dispatch() throws Exception {
        handler.onTimerCompleted(this);
    }

    @Override
    void beforeDispatch() {
        // no direction to free
    }

    @Override
    void onHandlerFailure(Throwable failure) {
        Dispatcher.LOG.error("timer handler {} failed", handler, failure);
    }

    @Override
    ChannelOp afterDispatch(boolean mayHandBack) {
        return null; // nothing to release: the timer object belongs to the user, who may schedule it again
    }

    @Override
    ChannelDirection openChainAcross() {
        return null; // no channel
    }

    @Override
    public String toString() {
        return "OpTimer[" + state + "]";
    }
}
