package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.spi.InterruptStrategy;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interrupts the leader's {@code epoll_wait} by writing to an eventfd that sits in the epoll set.
 *
 * <p>A flag coalesces interrupts into at most one eventfd write until the leader consumes it, and makes
 * an interrupt that arrives while no wait is running end the next wait at once: the wait strategy calls
 * {@link #consume()} before blocking and {@link #onEventfdReady()} when the eventfd fires.
 *
 * <p>It owns the eventfd. {@link #close()} waits for interrupts inside their write, and later ones do not
 * write, so an interrupt never writes to a descriptor number the kernel has handed out again.
 */
final class EventfdInterruptStrategy implements InterruptStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(EventfdInterruptStrategy.class);
    private static final int CLOSED = Integer.MIN_VALUE;

    private final int eventfd;
    private final AtomicBoolean requested = new AtomicBoolean();
    /** Interrupts inside their eventfd write, or {@link #CLOSED} once the eventfd is gone. */
    private final AtomicInteger writers = new AtomicInteger();

    EventfdInterruptStrategy(int eventfd) {
        this.eventfd = eventfd;
    }

    /** Any thread; never blocks (the eventfd is non-blocking and its counter cannot fill up). */
    @Override
    public void interrupt() {
        if (requested.getAndSet(true) || !enter()) {
            return; // a write is already on its way, or the engine is closed and nothing waits
        }
        try {
            int result = EpollNative.eventfdWrite(eventfd, 1);
            if (result < 0) {
                LOG.warn("interrupt failed: {}", Errors.newException("eventfd write", result).getMessage());
            }
        } finally {
            writers.decrementAndGet();
        }
    }

    private boolean enter() {
        while (true) {
            int current = writers.get();
            if (current < 0) {
                return false;
            }
            if (writers.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Closes the eventfd once no interrupt is writing to it; later interrupts do nothing. Once. */
    void close() throws IOException {
        while (!writers.compareAndSet(0, CLOSED)) {
            Thread.onSpinWait(); // an interrupt is inside one non-blocking write: microseconds
        }
        Errors.check("close(eventfd)", IoNative.close(eventfd));
    }

    /**
     * Leader, before waiting: takes a pending interrupt.
     *
     * @return whether one was pending, in which case the wait must not block
     */
    boolean consume() {
        return requested.get() && requested.getAndSet(false);
    }

    /**
     * Leader, when the eventfd is readable: clears the flag, then drains the counter. An interrupt
     * arriving in between sets the flag again and the next wait returns at once; clearing after draining
     * could lose it.
     */
    void onEventfdReady() {
        requested.set(false);
        long result = EpollNative.eventfdRead(eventfd);
        if (result < 0 && !Errors.isAgain(result)) {
            LOG.warn("draining the interrupt eventfd failed: {}",
                    Errors.newException("eventfd read", result).getMessage());
        }
    }
}
