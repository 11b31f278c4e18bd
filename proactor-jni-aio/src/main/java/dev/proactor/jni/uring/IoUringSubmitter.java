package dev.proactor.jni.uring;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The io_uring engine's own submitting thread, for SQEs written by threads that must not submit them (see
 * {@link IoUringEngine}: the kernel ties a request to the thread whose {@code io_uring_enter} submitted it and
 * cancels it when that thread exits). It lives exactly as long as the engine, sleeps until {@link #wake()}, and then
 * submits everything written so far in one {@code io_uring_enter} that does not wait. A user thread that starts an
 * operation and exits, or a virtual thread's carrier, thus never owns a request.
 */
final class IoUringSubmitter {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringSubmitter.class);

    private final IoUringRing ring;
    private final Thread thread;
    private final AtomicBoolean signalled = new AtomicBoolean();
    /** Wake-ups that reached a sleeping submitter; for tests of who submits what. */
    private final AtomicLong wakeups = new AtomicLong();
    private volatile boolean stopped;

    IoUringSubmitter(IoUringRing ring, String name) {
        this.ring = ring;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether the calling thread is this submitter. */
    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    /** Has everything written so far submitted soon. Any thread; cheap when a wake-up is already on its way. */
    void wake() {
        if (!signalled.getAndSet(true)) {
            wakeups.incrementAndGet();
            LockSupport.unpark(thread);
        }
    }

    /** How many times {@link #wake()} signalled the thread (coalesced calls count once). */
    long wakeups() {
        return wakeups.get();
    }

    private void run() {
        while (!stopped) {
            if (!signalled.getAndSet(false)) {
                LockSupport.park(this);
                continue;
            }
            try {
                ring.submitPending();
            } catch (IOException e) {
                LOG.warn("io_uring submission failed (retried at the next wake-up): {}", e.getMessage());
            }
        }
    }

    /** Stops the thread after a last submission and waits for it. Called once, by the engine's close. */
    void stop() throws InterruptedException {
        stopped = true;
        LockSupport.unpark(thread);
        thread.join();
    }
}
