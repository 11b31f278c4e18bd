package dev.proactor.jni;

import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.IoNative;

/**
 * Whether the epoll engine can run here, and if not, why.
 *
 * <p>It can when the native library is available (see {@link NativeLibrary}) and the kernel lets this
 * process create an epoll set and an eventfd. The probe runs once, on first use, from any thread.
 */
public final class Epoll {

    private static final Throwable UNAVAILABILITY_CAUSE = probe();

    private Epoll() {
    }

    /** Whether the epoll engine can be used. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * @throws UnsatisfiedLinkError with the reason as its cause when the epoll engine cannot be used
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "the epoll engine is unavailable: " + UNAVAILABILITY_CAUSE.getMessage());
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the epoll engine cannot be used, or {@code null} when it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    private static Throwable probe() {
        Throwable libraryCause = NativeLibrary.unavailabilityCause();
        if (libraryCause != null) {
            return libraryCause;
        }
        int epfd = EpollNative.epollCreate(EpollNative.EPOLL_CLOEXEC);
        if (epfd < 0) {
            return Errors.newException("epoll_create1", epfd);
        }
        try {
            int eventfd = EpollNative.eventfd(0, EpollNative.EFD_CLOEXEC | EpollNative.EFD_NONBLOCK);
            if (eventfd < 0) {
                return Errors.newException("eventfd", eventfd);
            }
            IoNative.close(eventfd);
            return null;
        } finally {
            IoNative.close(epfd);
        }
    }
}
