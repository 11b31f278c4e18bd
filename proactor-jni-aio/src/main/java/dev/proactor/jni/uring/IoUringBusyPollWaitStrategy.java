package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Spins on a non-blocking {@code io_uring_enter} (submit what was written, collect what completed) until something
 * completes, an interrupt NOP arrives or the timeout ends: the lowest latency, at the price of a busy core.
 * Starters never submit themselves under this strategy (the leader never blocks), so every batch goes in one call.
 */
final class IoUringBusyPollWaitStrategy implements WaitStrategy {

    static final String NAME = "busy-poll";

    /** Reaps the completions of each turn (the leader's side of the engine). */
    private final IoUringReaper reaper;
    private final IoUringSubmission submission;
    private final IoUringRing ring;
    private final IoUringInterruptStrategy interrupt;
    private final ArrayDeque<IoRequest> completed;

    IoUringBusyPollWaitStrategy(IoUringReaper reaper, IoUringSubmission submission, IoUringRing ring,
                                IoUringInterruptStrategy interrupt, ArrayDeque<IoRequest> completed) {
        this.reaper = reaper;
        this.submission = submission;
        this.ring = ring;
        this.interrupt = interrupt;
        this.completed = completed;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int waitFor(long timeoutNanos) throws IOException {
        submission.claim();
        boolean own = submission.maySubmit();
        if (own) {
            submission.beginOwnTurn(); // threads that may not submit leave their entries to this leader's turn
        }
        return spin(own, timeoutNanos);
    }

    /** Ends the calling own thread's turn: what other threads left to it is submitted now. */
    @Override
    public void leaderAway() {
        submission.leaderAway();
    }

    private int spin(boolean own, long timeoutNanos) throws IOException {
        interrupt.takeSeen();
        reaper.turnStarted();
        long deadline = System.nanoTime() + Math.max(timeoutNanos, 0);
        while (true) {
            int n = 0;
            if (own) {
                n = ring.takeUnsubmitted();
            } else if (ring.hasUnsubmitted()) {
                submission.handOffUnsubmitted(); // this leader may exit: its enter submits nothing
            }
            int result = submission.mayEnter() ? ring.enterNoWait(n) : 0; // see IoUringSubmission: owner
            ring.afterEnter(n, result);
            reaper.reap();
            if (!IoUringRing.isTransient(result)) {
                throw Errors.newException("io_uring_enter", result);
            }
            if (!completed.isEmpty() || interrupt.takeSeen() || timeoutNanos == 0
                    || (timeoutNanos > 0 && System.nanoTime() - deadline >= 0)) {
                break;
            }
            Thread.onSpinWait();
        }
        reaper.turnEnded(completed.size());
        return completed.size();
    }

    @Override
    public IoRequest nextCompleted() {
        return completed.poll();
    }

    @Override
    public InterruptStrategy interruptStrategy() {
        return interrupt;
    }
}
