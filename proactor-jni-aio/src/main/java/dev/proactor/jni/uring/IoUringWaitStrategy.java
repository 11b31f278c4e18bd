package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Submits what was written and blocks in one {@code io_uring_enter} until a completion, an interrupt NOP or the
 * timeout. The default strategy of the io_uring engine. With completion coalescing
 * ({@code proactor.uring.batchWaitMicros}, {@link IoUringFeatures#batchWaitMicros()}, set only for the owner of a
 * single-issuer ring) the blocking enter holds out that long for a batch of completions before it returns with what
 * came.
 */
final class IoUringWaitStrategy implements WaitStrategy {

    static final String NAME = "io_uring";

    /** Reaps the completions of each turn (the leader's side of the engine). */
    private final IoUringReaper reaper;
    private final IoUringSubmission submission;
    private final IoUringRing ring;
    private final SqeHandOff handOff;
    private final IoUringInterruptStrategy interrupt;
    private final ArrayDeque<IoRequest> completed;
    /** Coalescing: the longest a blocking wait holds out for {@link #batchCompletions} (0: off). */
    private final int batchMicros;
    private final int batchCompletions;
    /** Coalescing's choice wait by wait, or null when it is off. */
    private final IoUringCoalescing coalescing;
    /** Whether the last {@link #blockingEnter} held out for a batch. */
    private boolean heldOut;

    IoUringWaitStrategy(IoUringReaper reaper, IoUringSubmission submission, IoUringRing ring, SqeHandOff handOff,
                        IoUringInterruptStrategy interrupt, ArrayDeque<IoRequest> completed,
                        IoUringFeatures features) {
        this.reaper = reaper;
        this.submission = submission;
        this.ring = ring;
        this.handOff = handOff;
        this.interrupt = interrupt;
        this.completed = completed;
        this.batchMicros = features.batchWaitMicros();
        this.batchCompletions = features.batchWaitCompletions();
        this.coalescing = batchMicros > 0 ? new IoUringCoalescing(batchCompletions) : null;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * One wait. A leader that may submit begins a turn ({@link IoUringSubmission#beginOwnTurn()}), which lasts until
     * {@link #leaderAway()}: what other threads write meanwhile is submitted by its enters, after a ring of the
     * doorbell if it blocks. A wake-up by the doorbell alone (no completion, no interrupt) is the engine's business:
     * the leader submits what rang and waits again within the same call.
     */
    @Override
    public int waitFor(long timeoutNanos) throws IOException {
        interrupt.takeSeen();
        submission.claim();
        boolean own = submission.maySubmit();
        if (own) {
            submission.beginOwnTurn();
        }
        return turn(own, timeoutNanos);
    }

    /** Ends the calling own thread's turn: what other threads left to it is submitted now. */
    @Override
    public void leaderAway() {
        submission.leaderAway();
    }

    private int turn(boolean own, long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        long remaining = timeoutNanos;
        boolean enters = submission.mayEnter(); // false only for a non-owner of a single-issuer ring (at close)
        submission.takeDoorbellRung();
        reaper.turnStarted();
        int found = reaper.reap();
        for (;;) {
            // Retired descriptors (single-issuer ring): submit without blocking, so that they close at this reap.
            boolean block = found == 0 && completed.isEmpty() && remaining != 0 && !reaper.hasRetired();
            boolean capped = false;
            boolean backlogged = false;
            boolean blocked = false; // a blocking enter was made (coalescing learns from what it found)
            int result;
            if (block) {
                int n = 0;
                if (own) {
                    n = handOff.takeForWait();
                    backlogged = ring.hasBacklog(); // more than the queue holds: submit, and come back for the rest
                } else if (handOff.markWaitWithoutSubmitting()) {
                    submission.handOffUnsubmitted(); // this leader may exit: its enter submits nothing
                }
                // Offloaded work outstanding: hand-offs may skip the doorbell, so this wait is bounded.
                capped = own && !backlogged && handOff.isWaitBounded()
                        && (remaining < 0 || remaining > OFFLOAD_WAIT_LIMIT_NANOS);
                long wait = capped ? OFFLOAD_WAIT_LIMIT_NANOS : remaining;
                result = -ErrnoNative.EINTR; // if the enter throws: every entry is given back
                try {
                    blocked = enters && !backlogged;
                    result = !enters ? nothingToEnter(remaining)
                            : backlogged ? ring.enterNoWait(n) : blockingEnter(n, wait < 0 ? -1 : wait);
                } finally {
                    handOff.endWait(n, result);
                }
            } else {
                int n = own ? ring.takeUnsubmitted() : 0;
                result = (n > 0 || found == 0) && enters ? ring.enterNoWait(n) : 0;
                ring.afterEnter(n, result);
            }
            found = reaper.reap();
            if (blocked && coalescing != null) {
                coalescing.waited(heldOut, found);
            }
            if (!IoUringRing.isTransient(result)) {
                throw Errors.newException("io_uring_enter", result);
            }
            // Woken only to submit (by the doorbell, at the bound of a capped wait, or backlogged entries still
            // to move in): submit and wait again.
            boolean onlyToSubmit = block && completed.isEmpty()
                    && (submission.takeDoorbellRung() | capped | backlogged) && !interrupt.takeSeen();
            if (!onlyToSubmit) {
                reaper.turnEnded(completed.size());
                return completed.size();
            }
            if (timeoutNanos > 0) {
                remaining = Math.max(0, deadline - System.nanoTime());
            }
            found = 0; // what was reaped was the doorbell (and perhaps cancels' own completions): wait again
        }
    }

    /**
     * Submits {@code n} entries and blocks for a completion, or with coalescing on for a batch of them, up to the
     * coalescing bound, and then for the first. Not when the wait ends sooner anyway (a timer due, a bounded
     * wait): the batch could only shorten it; nor while completions come too seldom to fill a batch
     * ({@link IoUringCoalescing}).
     */
    private int blockingEnter(int n, long waitNanos) {
        heldOut = coalescing != null && (waitNanos < 0 || waitNanos > batchMicros * 1_000L) && coalescing.holdOut();
        if (heldOut) {
            return ring.enter(n, batchCompletions, waitNanos, batchMicros);
        }
        return ring.enter(n, 1, waitNanos);
    }

    /**
     * Longest blocking enter while offloaded handler work is outstanding ({@link SqeHandOff#isWaitBounded()}):
     * the longest an entry handed off without a ring of the doorbell waits when that work blocks or never ends.
     */
    static final long OFFLOAD_WAIT_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Longest sleep of {@link #nothingToEnter}. */
    private static final long NOT_ENTERED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * The wait of a leader that may not enter a single-issuer ring (the closing thread, after the owner collected
     * everything): only what is already in the completion queue can be found, so it sleeps out a short wait.
     */
    private static int nothingToEnter(long remainingNanos) {
        LockSupport.parkNanos(remainingNanos < 0 ? NOT_ENTERED_NANOS : Math.min(remainingNanos, NOT_ENTERED_NANOS));
        return -IoUringNative.ETIME;
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
