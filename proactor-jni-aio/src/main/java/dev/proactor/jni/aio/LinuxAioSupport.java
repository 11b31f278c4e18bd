package dev.proactor.jni.aio;

import dev.proactor.jni.Epoll;
import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.LinuxAioNative;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether Linux native AIO can be used here, and the clear message for each way it cannot: the system-wide limit
 * {@code /proc/sys/fs/aio-max-nr} reached ({@code EAGAIN} from {@code io_setup}), the calls filtered by seccomp or
 * a container policy ({@code EPERM}, or {@code ENOSYS} where the filter answers that), or a kernel built without
 * AIO ({@code ENOSYS}).
 */
public final class LinuxAioSupport {

    private LinuxAioSupport() {
    }

    /**
     * Probes once: the epoll engine (which serves the sockets) must be available and {@code io_setup(1)} must work.
     *
     * @return null when Linux AIO is usable, else the reason
     */
    public static Throwable probe() {
        Throwable epoll = Epoll.unavailabilityCause();
        if (epoll != null) {
            return epoll;
        }
        long context = LinuxAioNative.ioSetup(1);
        if (context < 0) {
            return setupFailure(1, context);
        }
        LinuxAioNative.ioDestroy(context);
        return null;
    }

    /** The exception for a failed {@code io_setup(nrEvents)}, naming the likely cause. */
    static IOException setupFailure(int nrEvents, long result) {
        IOException plain = Errors.newException("io_setup", result);
        String why;
        if (result == -ErrnoNative.EAGAIN) {
            why = "io_setup(" + nrEvents + ") failed with EAGAIN: the system-wide limit of AIO requests in"
                    + " /proc/sys/fs/aio-max-nr (" + read("aio-max-nr") + ", in use: " + read("aio-nr")
                    + ") is exhausted; raise it (sysctl -w fs.aio-max-nr=1048576) or close other AIO users";
        } else if (result == -ErrnoNative.ENOSYS) {
            why = "io_setup failed with ENOSYS: the kernel has no native AIO (CONFIG_AIO off) or a seccomp filter"
                    + " answers ENOSYS for it (containers often do)";
        } else if (result == -ErrnoNative.EPERM) {
            why = "io_setup failed with EPERM: blocked by a seccomp filter or the container's security policy";
        } else {
            why = "io_setup(" + nrEvents + ") failed";
        }
        IOException e = new IOException(why + " (" + plain.getMessage() + ")");
        e.initCause(plain);
        return e;
    }

    private static String read(String name) {
        try {
            return Files.readString(Path.of("/proc/sys/fs", name)).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
