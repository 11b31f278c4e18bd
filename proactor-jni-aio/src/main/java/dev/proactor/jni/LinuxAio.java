package dev.proactor.jni;

import dev.proactor.jni.aio.LinuxAioSupport;

/**
 * Whether the Linux AIO engine ({@code proactor.engine=linux-aio}) can run here, and if not, why.
 *
 * <p>It can when the epoll engine can (it serves the sockets; see {@link Epoll}) and the kernel lets this process
 * create an AIO context ({@code io_setup}). The causes it reports: the system-wide limit
 * {@code /proc/sys/fs/aio-max-nr} reached, a seccomp filter or container policy ({@code EPERM}/{@code ENOSYS}), a
 * kernel without AIO. The probe runs once, on first use, from any thread.
 */
public final class LinuxAio {

    private static final Throwable UNAVAILABILITY_CAUSE = probe();

    private LinuxAio() {
    }

    /** Whether the Linux AIO engine can be used. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * @throws UnsatisfiedLinkError with the reason as its cause when the Linux AIO engine cannot be used
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "the linux-aio engine is unavailable: " + UNAVAILABILITY_CAUSE.getMessage());
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the Linux AIO engine cannot be used, or {@code null} when it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    private static Throwable probe() {
        Throwable libraryCause = NativeLibrary.unavailabilityCause();
        return libraryCause != null ? libraryCause : LinuxAioSupport.probe();
    }
}
