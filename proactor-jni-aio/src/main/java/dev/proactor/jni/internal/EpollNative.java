package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.lang.ref.Reference;

/**
 * Natives and constants of {@code epoll.c}: epoll sets and eventfds.
 *
 * <p>All calls return {@code >= 0} or {@code -errno}. Events are read from an {@link EpollEventArray};
 * the {@code long}-address form of {@code epollWait} is unchecked (see the package documentation).
 */
public final class EpollNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    public static final int EPOLL_CLOEXEC = NativeConstants.intValue("EPOLL_CLOEXEC");
    public static final int EPOLL_CTL_ADD = NativeConstants.intValue("EPOLL_CTL_ADD");
    public static final int EPOLL_CTL_MOD = NativeConstants.intValue("EPOLL_CTL_MOD");
    public static final int EPOLL_CTL_DEL = NativeConstants.intValue("EPOLL_CTL_DEL");
    public static final int EPOLLIN = NativeConstants.intValue("EPOLLIN");
    public static final int EPOLLOUT = NativeConstants.intValue("EPOLLOUT");
    public static final int EPOLLPRI = NativeConstants.intValue("EPOLLPRI");
    public static final int EPOLLERR = NativeConstants.intValue("EPOLLERR");
    public static final int EPOLLHUP = NativeConstants.intValue("EPOLLHUP");
    public static final int EPOLLRDHUP = NativeConstants.intValue("EPOLLRDHUP");
    public static final int EPOLLONESHOT = NativeConstants.intValue("EPOLLONESHOT");
    /** {@code 1u << 31}: negative as a Java int, with the right bit pattern. */
    public static final int EPOLLET = NativeConstants.intValue("EPOLLET");
    public static final int EFD_CLOEXEC = NativeConstants.intValue("EFD_CLOEXEC");
    public static final int EFD_NONBLOCK = NativeConstants.intValue("EFD_NONBLOCK");
    public static final int EFD_SEMAPHORE = NativeConstants.intValue("EFD_SEMAPHORE");

    static final int EVENT_SIZE = NativeConstants.intValue("EPOLL_EVENT_SIZE");
    static final int EVENT_EVENTS_OFFSET = NativeConstants.intValue("EPOLL_EVENT_EVENTS_OFFSET");
    static final int EVENT_DATA_OFFSET = NativeConstants.intValue("EPOLL_EVENT_DATA_OFFSET");

    private EpollNative() {
    }

    /** {@code epoll_create1(2)}, e.g. with {@link #EPOLL_CLOEXEC}. */
    public static native int epollCreate(int flags);

    /** {@code epoll_ctl(2)}; {@code data} comes back unchanged with every event of {@code fd}. */
    public static native int epollCtl(int epfd, int op, int fd, int events, long data);

    /**
     * {@code epoll_wait(2)} into {@code maxEvents} structs at {@code eventsAddress}; unchecked.
     * {@code -EINTR} is returned, not retried, so a timeout is never extended.
     */
    public static native int epollWait(int epfd, long eventsAddress, int maxEvents, int timeoutMillis);

    /** {@code eventfd(2)}, e.g. with {@link #EFD_NONBLOCK} | {@link #EFD_CLOEXEC}. */
    public static native int eventfd(int initialValue, int flags);

    /** Adds {@code value} to the counter; 0 or {@code -errno}. */
    public static native int eventfdWrite(int fd, long value);

    /** Takes and resets the counter (kept below 2^63 by callers); {@code -EAGAIN} when it is zero. */
    public static native long eventfdRead(int fd);

    /**
     * Waits for events into {@code events}.
     *
     * @param timeoutMillis -1 to wait without limit, 0 not to block
     * @return the number of events filled in, or {@code -errno} ({@code -EINTR} on a signal)
     */
    public static int epollWait(int epfd, EpollEventArray events, int timeoutMillis) {
        int result = epollWait(epfd, events.address(), events.capacity(), timeoutMillis);
        Reference.reachabilityFence(events);
        return result;
    }
}
