package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.IoNative;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Descriptors of closed channels that still wait for the kernel to consume the SQEs written for them, on a
 * single-issuer ring (see {@link IoUringEngine}, "Closing a descriptor"): the kernel looks a descriptor up when it
 * takes an SQE in, so its number may be closed, and reused, only after that. The closing thread cannot make the
 * kernel take anything in there (only the ring's owner enters), so it leaves the descriptor here; the owner closes
 * it after the wait that consumed those SQEs ({@link #closeConsumed}, after every reap), and the engine's close
 * closes the rest once the ring is gone.
 *
 * <p>Thread-safe. Each descriptor is closed exactly once, by whichever thread finds it consumed first.
 */
final class RetiredDescriptors {

    private static final Logger LOG = LoggerFactory.getLogger(RetiredDescriptors.class);

    /** A descriptor, the SQ position after the last SQE written for it, and what it was, for the log. */
    private record Retired(int fd, int mark, String description) {
    }

    /** In order of retirement, hence of their marks. Guarded by this. */
    private final ArrayDeque<Retired> waiting = new ArrayDeque<>();
    /** Count of {@link #waiting}, read without the lock by {@link #closeConsumed} on every reap. */
    private volatile int count;

    /** Leaves {@code fd} to be closed once the kernel consumed every SQE before {@code mark}. */
    synchronized void add(int fd, int mark, String description) {
        waiting.add(new Retired(fd, mark, description));
        count = waiting.size();
    }

    /** Whether any descriptor waits. Any thread, without the lock. */
    boolean waiting() {
        return count > 0;
    }

    /** Closes every descriptor whose SQEs the kernel has consumed. Cheap when none waits. Any thread. */
    void closeConsumed(IoUringRing ring) {
        if (count == 0) {
            return;
        }
        synchronized (this) {
            while (!waiting.isEmpty() && ring.consumed(waiting.peek().mark())) {
                close(waiting.poll());
            }
            count = waiting.size();
        }
    }

    /** Closes every descriptor left. After the ring is closed: no SQE is taken in any more. */
    synchronized void closeAll() {
        while (!waiting.isEmpty()) {
            close(waiting.poll());
        }
        count = 0;
    }

    private static void close(Retired r) {
        int result = IoNative.close(r.fd());
        if (result < 0) {
            LOG.warn("closing {} failed: {}", r.description(), Errors.newException("close", result).getMessage());
        }
    }
}
