package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An eventfd in the epoll set wakes a thread blocked in epoll_wait without a timeout. */
class EventfdWakeupTest {

    private static final long WAKE_UP = 42;

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    @Test
    void eventfdWriteWakesABlockedWait() throws Exception {
        int eventfd = EpollNative.eventfd(0, EpollNative.EFD_NONBLOCK | EpollNative.EFD_CLOEXEC);
        assertTrue(eventfd >= 0, () -> "eventfd: " + eventfd);
        try (EpollLoop loop = new EpollLoop()) {
            loop.add(eventfd, EpollNative.EPOLLIN, WAKE_UP);
            EpollEventArray events = new EpollEventArray(4);
            AtomicReference<String> failure = new AtomicReference<>();
            int[] seen = new int[3];
            CountDownLatch waiting = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                waiting.countDown();
                int count;
                do {
                    count = EpollNative.epollWait(loop.fd(), events, -1); // no timeout: only the eventfd ends it
                } while (count == -ErrnoNative.EINTR);
                if (count != 1) {
                    failure.set("epoll_wait returned " + count);
                    return;
                }
                seen[0] = count;
                seen[1] = events.events(0);
                seen[2] = (int) events.data(0);
            }, "epoll-waiter");
            waiter.start();
            waiting.await();
            assertEquals(0, EpollNative.eventfdWrite(eventfd, 1));
            waiter.join(30_000); // hang guard, not a timing assertion
            assertFalse(waiter.isAlive(), "epoll_wait was not woken by the eventfd");
            assertNull(failure.get());
            assertEquals(WAKE_UP, seen[2]);
            assertTrue((seen[1] & EpollNative.EPOLLIN) != 0);

            assertEquals(1, EpollNative.eventfdRead(eventfd));
            assertEquals(-ErrnoNative.EAGAIN, EpollNative.eventfdRead(eventfd), "reading resets the counter");
            assertEquals(0, EpollNative.epollWait(loop.fd(), events, 0), "nothing ready after the reset");
        } finally {
            IoNative.close(eventfd);
        }
    }
}
