package dev.proactor.internal;

import dev.proactor.AsynchHandler;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;

/**
 * The timeout of one {@link ChannelSlot}, made on its first timed use and reused by every later one, so timed
 * operations allocate nothing in the steady state. It runs on one {@link TimerSlot} of the demultiplexor's timer
 * queue (no timer thread).
 *
 * <p><b>Why the timer is left queued.</b> Scheduling and cancelling a timer take the dispatcher's lock, which the
 * leader needs for every batch of completions. Applications that time every read and write (Tomcat's NIO2
 * connector: every request, with timeouts of seconds) would take it twice per operation from their worker threads,
 * and on a busy core a worker preempted while holding it stalls the leader for a whole time slice. So a completed
 * use only clears {@link #armed}; the timer stays queued for the deadline it was scheduled for. The next use whose
 * deadline is not earlier than that reuses it without touching the queue: when it fires, it finds the deadline of
 * the use armed then and queues itself again for the rest, or finds nothing armed and stays out of the queue. So a
 * channel whose operations complete in time takes the dispatcher's lock about once per timeout period, not twice
 * per operation. A deadline earlier than the queued one is scheduled at once.
 *
 * <p><b>Which use times out.</b> The deadline and the use number are read together under this object's monitor
 * when the timer fires; a firing that decides on a use that has completed meanwhile, or that a newer use replaced,
 * does nothing ({@link ChannelCore#timeOut} checks the use).
 *
 * <p><b>Release.</b> A closed channel's operations take their timers out of the queue ({@link #release()}: when
 * the channel closes for those on its free lists, after their callback for the others), so the queue does not keep
 * closed channels reachable until their timeouts run out.
 *
 * <p>Thread-safe: armed by the submitting thread, disarmed by the dispatching thread, fired by any dispatching
 * thread. The monitor is only ever taken before the dispatcher's lock, never the other way round.
 */
final class OpTimeout implements AsynchHandler {

    private final ChannelSlot op;
    private final Dispatcher dispatcher;
    final TimerSlot timer;

    // Guarded by this.
    /** Whether a use waits for this timeout. */
    private boolean armed;
    /** The use ({@link ChannelSlot#use}) armed, and its deadline on the timer clock. */
    private int use;
    private long deadline;
    /** Whether {@link #timer} is queued (or firing) for {@link #queuedFor}. */
    private boolean queued;
    private long queuedFor;

    OpTimeout(ChannelSlot op, DemultiplexorCore demultiplexor) {
        this.op = op;
        this.dispatcher = demultiplexor.dispatcher();
        this.timer = new TimerSlot(dispatcher, null, this); // no public view: never handed to a user
    }

    /**
     * Arms the timeout of use {@code use}, {@code nanos} from now.
     *
     * @throws IllegalStateException if the demultiplexor is closed and the timer had to be queued
     */
    synchronized void arm(int use, long nanos) {
        long at = dispatcher.timers.timerNow() + Math.min(nanos, Long.MAX_VALUE / 4);
        this.use = use;
        this.deadline = at;
        this.armed = true;
        if (queued && queuedFor - at <= 0) {
            return; // the queued timer fires first and queues itself again for the rest
        }
        queued = true;
        queuedFor = at;
        dispatcher.timers.scheduleAt(timer, at, null);
    }

    /** The armed use ended (dispatching thread, before its callback); the timer stays queued (see above). */
    synchronized void disarm() {
        armed = false;
    }

    /** Disarms and takes the timer out of the queue: the channel is closed, no use of this operation will come. */
    synchronized void release() {
        armed = false;
        if (queued) {
            queued = false;
            timer.cancel();
        }
    }

    @Override
    public void onTimerCompleted(OpTimer fired) {
        int expired;
        synchronized (this) {
            // A use may have queued the timer again after this firing was taken from the queue; then "not queued"
            // is wrong in the safe direction: the next arm queues it once more (a schedule replaces the old one).
            queued = false;
            if (!armed) {
                return;
            }
            if (deadline - dispatcher.timers.timerNow() > 0) {
                queued = true;
                queuedFor = deadline;
                try {
                    dispatcher.timers.scheduleAt(timer, deadline, null);
                } catch (IllegalStateException demultiplexorClosed) {
                    queued = false; // the close completes the operation
                }
                return;
            }
            armed = false;
            expired = use;
        }
        op.channel.timeOut(op, expired);
    }

    @Override
    public void onReadCompleted(OpRead ignored) {
        throw new IllegalStateException("a timeout has no reads");
    }

    @Override
    public void onWriteCompleted(OpWrite ignored) {
        throw new IllegalStateException("a timeout has no writes");
    }
}
