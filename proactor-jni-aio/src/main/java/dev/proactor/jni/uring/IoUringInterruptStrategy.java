package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.InterruptStrategy;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interrupts the leader's {@code io_uring_enter} by writing an {@code IORING_OP_NOP}, handed on like any SQE (see
 * {@link IoUringSubmission#afterWrite()}: submitted by this thread, the leader or the engine's submitter): its
 * completion ends the wait like any other, and it completes inline in the submitting call. A flag coalesces
 * interrupts into at most one NOP until the leader reaps it, and an interrupt that arrives while no wait runs leaves
 * its NOP in the completion queue, so the next wait returns at once.
 */
final class IoUringInterruptStrategy implements InterruptStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringInterruptStrategy.class);

    private final IoUringSubmission submission;
    private final AtomicBoolean requested = new AtomicBoolean();
    /** A NOP was reaped since the leader last asked; the leader's only. */
    private boolean seen;

    IoUringInterruptStrategy(IoUringSubmission submission) {
        this.submission = submission;
    }

    /**
     * Any thread; never blocks for long (a short hold of the ring's submission monitor, a submit by this thread if
     * it may submit, else by the engine's submitter).
     */
    @Override
    public void interrupt() {
        if (requested.getAndSet(true)) {
            return; // a NOP is on its way
        }
        try {
            if (submission.writeSqe(IoUringNative.OP_NOP, 0, -1, 0, 0, 0, 0, IoUringEngine.INTERRUPT_TAG)) {
                submission.afterWrite();
            }
        } catch (IOException e) {
            requested.set(false);
            LOG.warn("interrupt failed: {}", e.getMessage());
        }
    }

    /** Leader: a NOP was reaped. Clearing before later interrupts' checks lets them send a new one. */
    void onNopCompleted() {
        requested.set(false);
        seen = true;
    }

    /** Leader: whether a NOP was reaped since the last call. */
    boolean takeSeen() {
        boolean s = seen;
        seen = false;
        return s;
    }
}
