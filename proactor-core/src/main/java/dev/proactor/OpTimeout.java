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
    private final OpTimer timer;
    /** The use ({@link ChannelOp#use}) this timer was armed for. */
    private volatile int use;
    /** Whether the timer may be pending; plain: written before admission, read by the dispatching thread. */
    private boolean armed;

    OpTimeout(ChannelOp op, Demultiplexor demultiplexor) {
        this.op = op;
        this.timer = demultiplexor.newTimer(this);
    }

    /** @throws IllegalStateException if the demultiplexor is closed */
    void arm(int use, long nanos) {
        this.use = use;
        armed = true;
        timer.schedule(nanos, TimeUnit.NANOSECONDS);
    }

    void disarm() {
        if (armed) {
            armed = false;
            timer.cancel();
        }
    }

    @Override
    public void onTimerCompleted(OpTimer t) {
        op.channel.timeOut(op, use);
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
