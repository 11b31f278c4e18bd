package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.EpollEventArray;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.ErrnoNative;
import java.io.IOException;

/**
 * One {@code epoll_wait} and the hand-out of its events: interrupt events to the interrupt strategy,
 * channel events to the engine's readiness side ({@link EpollReadiness}). Leader thread only; allocates nothing.
 */
final class EpollPoller {

    /** Epoll user data of the interrupt eventfd; no channel id has all 64 bits set. */
    static final long INTERRUPT_ID = -1L;
    /** Epoll user data of an attached completion source's descriptor; no channel id is negative either. */
    static final long SOURCE_ID = -2L;

    /** Events taken per wait; more ready descriptors are simply returned by the next wait. */
    private static final int MAX_EVENTS = 256;

    private final int epfd;
    private final EpollReadiness readiness;
    private final EventfdInterruptStrategy interrupt;
    private final EpollEventArray events = new EpollEventArray(MAX_EVENTS);
    /** Whether the last poll saw the interrupt eventfd. */
    private boolean interrupted;

    EpollPoller(int epfd, EpollReadiness readiness, EventfdInterruptStrategy interrupt) {
        this.epfd = epfd;
        this.readiness = readiness;
        this.interrupt = interrupt;
    }

    /**
     * Waits up to {@code timeoutMillis} (-1: no limit, 0: poll) and processes the events.
     *
     * @return the number of events; 0 also after a signal ({@code EINTR}), which is a normal early return
     * @throws IOException if epoll_wait fails otherwise
     */
    int poll(int timeoutMillis) throws IOException {
        interrupted = false;
        int count = EpollNative.epollWait(epfd, events, timeoutMillis);
        if (count < 0) {
            if (count == -ErrnoNative.EINTR) {
                readiness.collectSource(false);
                return 0;
            }
            throw Errors.newException("epoll_wait", count);
        }
        boolean signalled = false;
        for (int i = 0; i < count; i++) {
            long data = events.data(i);
            if (data == INTERRUPT_ID) {
                interrupt.onEventfdReady();
                interrupted = true;
            } else if (data == SOURCE_ID) {
                signalled = true;
            } else {
                readiness.onReady(data, events.events(i));
            }
        }
        readiness.collectOrphans();
        readiness.collectSource(signalled);
        return count;
    }

    /** Whether the last {@link #poll(int)} was woken by an interrupt. */
    boolean interrupted() {
        return interrupted;
    }

    /** Converts a wait strategy timeout (negative: no limit) to epoll_wait milliseconds, rounding up. */
    static int toMillis(long timeoutNanos) {
        if (timeoutNanos < 0) {
            return -1;
        }
        if (timeoutNanos == 0) {
            return 0;
        }
        long millis = (timeoutNanos + 999_999) / 1_000_000;
        return (int) Math.min(millis, Integer.MAX_VALUE);
    }
}
