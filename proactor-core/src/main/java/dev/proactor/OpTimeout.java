package dev.proactor;

import java.util.concurrent.TimeUnit;

/**
 * The timeout of one {@link ChannelOp}, made on its first timed use and reused by every later one, so timed
 * operations allocate nothing in the steady state. It is an ordinary {@link OpTimer} of the demultiplexor's
 * timer queue (no timer thread). Armed by the submitting thread before the operation is admitted, disarmed by
 * the dispatching thread before the callback; a firing that loses the race with the completion, or that belongs
 * to an earlier use of the reused operation object, does nothing ({@link AsynchChannel#timeOut}).
 */
final class OpTimeout implements AsynchHandler {

    private final ChannelOp op;
    private final Demultiplexor demultiplexor;
    /**
     * The timer of the current arming. Replaced when a disarm finds it no longer pending (its callback has begun
     * or run): that callback may still be about to read {@link #use}, so the timer is never armed again for a
     * later use. Written before {@link #use} by the arming thread; read after it by the callback.
     */
    volatile OpTimer timer;
    /** The use ({@link ChannelOp#use}) the current timer was armed for. */
    private volatile int use;
    /** Whether the timer may be pending; plain: written before admission, read by the dispatching thread. */
    private boolean armed;

    OpTimeout(ChannelOp op, Demultiplexor demultiplexor) {
        this.op = op;
        this.demultiplexor = demultiplexor;
        this.timer = demultiplexor.newTimer(this);
    }

    /** @throws IllegalStateException if the demultiplexor is closed */
    void arm(int use, long nanos) {
        this.use = use;
        timer.schedule(nanos, TimeUnit.NANOSECONDS);
        armed = true;
    }

    void disarm() {
        if (armed) {
            armed = false;
            if (!timer.cancel()) {
                timer = demultiplexor.newTimer(this); // only after a timer fired: no allocation in steady state
            }
        }
    }

    @Override
    public void onTimerCompleted(OpTimer fired) {
        int armedUse = use; // before the timer: a newer use is only ever written after a newer timer
        if (fired != timer) {
            return; // a firing whose use has been dispatched already
        }
        op.channel.timeOut(op, armedUse);
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
