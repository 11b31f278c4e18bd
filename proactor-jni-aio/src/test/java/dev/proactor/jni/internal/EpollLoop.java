package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** A level-triggered epoll set for tests, waiting for the event of one registration at a time. */
final class EpollLoop implements AutoCloseable {

    /** Hang guard only: a wait that sees nothing this long means the test is broken, not slow. */
    private static final int GUARD_MILLIS = 30_000;

    private final int epfd;
    private final EpollEventArray events = new EpollEventArray(8);

    EpollLoop() {
        epfd = EpollNative.epollCreate(EpollNative.EPOLL_CLOEXEC);
        assertTrue(epfd >= 0, () -> "epoll_create1: " + epfd);
    }

    int fd() {
        return epfd;
    }

    void add(int fd, int interest, long data) {
        assertEquals(0, EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_ADD, fd, interest, data));
    }

    void modify(int fd, int interest, long data) {
        assertEquals(0, EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_MOD, fd, interest, data));
    }

    void remove(int fd) {
        assertEquals(0, EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_DEL, fd, 0, 0));
    }

    /** Waits until the registration tagged {@code data} is ready and returns its event mask. */
    int await(long data) {
        while (true) {
            int count = EpollNative.epollWait(epfd, events, GUARD_MILLIS);
            if (count == -ErrnoNative.EINTR) {
                continue;
            }
            assertTrue(count >= 0, () -> "epoll_wait: " + count);
            if (count == 0) {
                fail("no event for registration " + data + " within the hang guard");
            }
            for (int i = 0; i < count; i++) {
                if (events.data(i) == data) {
                    return events.events(i);
                }
            }
        }
    }

    @Override
    public void close() {
        IoNative.close(epfd);
    }
}
