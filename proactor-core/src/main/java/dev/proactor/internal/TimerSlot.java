package dev.proactor.internal;

import dev.proactor.AsynchHandler;
import dev.proactor.NotifyLevel;
import dev.proactor.OpState;
import dev.proactor.OpTimer;
import java.util.Objects;

/**
 * The state of an {@link OpTimer} (or of an operation's timeout timer, which has no public view): its
 * dispatcher, handler and place in the timer heap. Made once per timer object.
 */
public final class TimerSlot extends OpSlot {

    final Dispatcher dispatcher;
    final AsynchHandler handler;
    /** The public timer, or null for an internal timer (an operation's timeout). */
    private final OpTimer view;

    /** Deadline in {@link System#nanoTime()} units while in the timer heap. */
    long deadline;
    /** Tie-breaker keeping scheduling order for equal deadlines. */
    long sequence;
    /** Position in the timer heap, or -1 when not in it. */
    int heapIndex = -1;
    /** Whether the pending dispatch was asked with {@code post} (kept at close) rather than by a schedule. */
    boolean posted;

    /**
     * @param view the public timer this slot belongs to, or null for an internal one
     * @throws NullPointerException if {@code handler} is null
     */
    public TimerSlot(Dispatcher dispatcher, OpTimer view, AsynchHandler handler) {
        this.dispatcher = dispatcher;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.view = view;
    }

    /** The handler this timer is dispatched to. */
    public AsynchHandler handler() {
        return handler;
    }

    /** Whether this timer belongs to {@code d}. */
    public boolean belongsTo(Dispatcher d) {
        return dispatcher == d;
    }

    /** Schedules the timer {@code delayNanos} from now (see {@link OpTimer#schedule}). */
    public void schedule(long delayNanos, Object attachment) {
        dispatcher.timers.schedule(this, delayNanos, attachment);
    }

    /** Takes the timer out of the heap or queue (see {@link OpTimer#cancel}). */
    public boolean cancel() {
        return dispatcher.timers.cancel(this);
    }

    /** Queues the timer's completion now (see {@link dev.proactor.Demultiplexor#post}). */
    public void post(NotifyLevel level) {
        dispatcher.timers.post(this, level);
    }

    /** Whether the timer is scheduled or posted and its callback has not begun. */
    public boolean isPending() {
        OpState s = state;
        return s == OpState.STARTED || s == OpState.POSTED;
    }

    @Override
    void dispatch() throws Exception {
        handler.onTimerCompleted(view);
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
    ChannelSlot afterDispatch(boolean mayHandBack) {
        return null; // nothing to release: the timer object belongs to the user, who may schedule it again
    }

    @Override
    ChannelDirection openChainAcross() {
        return null; // no channel
    }

    @Override
    int chainLimit() {
        return 0; // a timer hands nothing back: there is no chain after its callback
    }

    @Override
    public String toString() {
        return "OpTimer[" + state + "]";
    }
}
