package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Submits what was written and blocks in one {@code io_uring_enter} until a completion, an interrupt NOP or the
 * timeout. The default strategy of the io_uring engine.
 */
final class IoUringWaitStrategy implements WaitStrategy {

    static final String NAME = "io_uring";

    private final IoUringEngine engine;
    private final IoUringRing ring;
    private final IoUringInterruptStrategy interrupt;
    private final ArrayDeque<IoRequest> completed;

    IoUringWaitStrategy(IoUringEngine engine, IoUringRing ring, IoUringInterruptStrategy interrupt,
                        ArrayDeque<IoRequest> completed) {
        this.engine = engine;
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
        interrupt.takeSeen();
        int found = engine.reap();
        boolean block = found == 0 && completed.isEmpty() && timeoutNanos != 0;
        int result;
        if (block) {
            int n = 0;
            if (engine.maySubmit()) {
                n = ring.takeForWait();
            } else if (ring.markWaitWithoutSubmitting()) {
                engine.handOffUnsubmitted(); // this leader may exit: its enter submits nothing
            }
            try {
                result = ring.enter(n, 1, timeoutNanos < 0 ? -1 : timeoutNanos);
            } finally {
                ring.endWait();
            }
            ring.afterEnter(n, result);
        } else {
            int n = engine.maySubmit() ? ring.takeUnsubmitted() : 0;
            result = n > 0 || found == 0 ? ring.enterNoWait(n) : 0;
            ring.afterEnter(n, result);
        }
        engine.reap();
        if (!IoUringRing.isTransient(result)) {
            throw Errors.newException("io_uring_enter", result);
        }
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
