package dev.proactor.jni;

import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the io_uring engine can run here, and if not, why; and which optional kernel features it found.
 *
 * <p>It can when the native library is available (see {@link NativeLibrary}), the kernel lets this process create
 * a ring, the ring has {@code IORING_FEAT_NODROP} and {@code IORING_FEAT_EXT_ARG} (Linux 5.11+), and
 * {@code IORING_REGISTER_PROBE} reports every opcode the engine uses. Each refusal is turned into a cause that
 * names its likely reason: a kernel too old or built without io_uring ({@code ENOSYS}), the
 * {@code kernel.io_uring_disabled} sysctl or a seccomp filter ({@code EPERM}, also {@code ENOSYS} for filters that
 * answer so), {@code RLIMIT_MEMLOCK} too low on kernels before 5.12 ({@code ENOMEM}). The probe runs once, on first
 * use, from any thread.
 */
public final class IoUring {

    /** The opcodes the engine cannot run without, with their names for the cause. */
    private static final String[] REQUIRED_NAMES = {"NOP", "READV", "WRITEV", "SENDMSG", "RECVMSG", "ACCEPT",
        "ASYNC_CANCEL", "CONNECT", "READ", "WRITE", "SEND", "RECV", "POLL_ADD"};

    private static final boolean SINGLE_ISSUER_SUPPORTED;
    private static final boolean DEFER_TASKRUN_SUPPORTED;
    private static final boolean COOP_TASKRUN_SUPPORTED;
    private static final boolean MIN_TIMEOUT_SUPPORTED;
    private static final boolean RECV_BUNDLE_SUPPORTED;
    private static final Throwable UNAVAILABILITY_CAUSE;

    static {
        boolean[] optional = new boolean[5];
        UNAVAILABILITY_CAUSE = probe(optional);
        SINGLE_ISSUER_SUPPORTED = optional[0];
        DEFER_TASKRUN_SUPPORTED = optional[1];
        COOP_TASKRUN_SUPPORTED = optional[2];
        MIN_TIMEOUT_SUPPORTED = optional[3];
        RECV_BUNDLE_SUPPORTED = optional[4];
    }

    private IoUring() {
    }

    /** Whether the io_uring engine can be used. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * @throws UnsatisfiedLinkError with the reason as its cause when the io_uring engine cannot be used
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "the io_uring engine is unavailable: " + UNAVAILABILITY_CAUSE.getMessage());
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the io_uring engine cannot be used, or {@code null} when it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * Whether the kernel accepts {@code IORING_SETUP_SINGLE_ISSUER} (Linux 6.0+; also the kernel generation that
     * has {@code IORING_RECVSEND_POLL_FIRST}, 5.19+). False when the engine is unavailable.
     */
    public static boolean isSingleIssuerSupported() {
        return SINGLE_ISSUER_SUPPORTED;
    }

    /** Whether the kernel accepts {@code IORING_SETUP_DEFER_TASKRUN} (Linux 6.1+). False when unavailable. */
    public static boolean isDeferTaskrunSupported() {
        return DEFER_TASKRUN_SUPPORTED;
    }

    /** Whether the kernel accepts {@code IORING_SETUP_COOP_TASKRUN} (Linux 5.19+). False when unavailable. */
    public static boolean isCoopTaskrunSupported() {
        return COOP_TASKRUN_SUPPORTED;
    }

    /**
     * Whether the kernel has {@code IORING_FEAT_MIN_TIMEOUT} (Linux 6.12+): a wait for several completions that
     * returns with fewer after a minimum time. False when unavailable.
     */
    public static boolean isMinTimeoutSupported() {
        return MIN_TIMEOUT_SUPPORTED;
    }

    /**
     * Whether the kernel has {@code IORING_FEAT_RECVSEND_BUNDLE} (Linux 6.10+): one receive fills several blocks of
     * a provided-buffer ring. False when unavailable.
     */
    public static boolean isRecvBundleSupported() {
        return RECV_BUNDLE_SUPPORTED;
    }

    private static Throwable probe(boolean[] optional) {
        Throwable libraryCause = NativeLibrary.unavailabilityCause();
        if (libraryCause != null) {
            return libraryCause;
        }
        NativeMemory params = NativeMemory.allocate(IoUringNative.PARAMS_SIZE);
        int fd = IoUringNative.setup(8, params.address());
        if (fd < 0) {
            return explainSetupFailure(fd);
        }
        try {
            int features = params.buffer().getInt(IoUringNative.PARAMS_FEATURES);
            if ((features & IoUringNative.FEAT_EXT_ARG) == 0 || (features & IoUringNative.FEAT_NODROP) == 0) {
                return new IOException("io_uring of this kernel is too old: it lacks IORING_FEAT_EXT_ARG or "
                        + "IORING_FEAT_NODROP (Linux 5.11 or later is needed)");
            }
            Throwable opcodes = checkOpcodes(fd);
            if (opcodes != null) {
                return opcodes;
            }
            optional[3] = (features & IoUringNative.FEAT_MIN_TIMEOUT) != 0;
            optional[4] = (features & IoUringNative.FEAT_RECVSEND_BUNDLE) != 0;
        } finally {
            IoNative.close(fd);
        }
        optional[0] = trySetup(IoUringNative.SETUP_SINGLE_ISSUER);
        optional[1] = optional[0] && trySetup(IoUringNative.SETUP_SINGLE_ISSUER | IoUringNative.SETUP_DEFER_TASKRUN);
        optional[2] = trySetup(IoUringNative.SETUP_COOP_TASKRUN);
        return null;
    }

    private static boolean trySetup(int flags) {
        NativeMemory params = NativeMemory.allocate(IoUringNative.PARAMS_SIZE);
        params.buffer().putInt(IoUringNative.PARAMS_FLAGS, flags);
        int fd = IoUringNative.setup(4, params.address());
        if (fd < 0) {
            return false;
        }
        IoNative.close(fd);
        return true;
    }

    private static Throwable checkOpcodes(int fd) {
        int ops = 256;
        NativeMemory probe = NativeMemory.allocate(IoUringNative.PROBE_SIZE + ops * IoUringNative.PROBE_OP_SIZE);
        int result = IoUringNative.register(fd, IoUringNative.REGISTER_PROBE, probe.address(), ops);
        if (result < 0) {
            return Errors.newException("io_uring_register(IORING_REGISTER_PROBE) (Linux 5.6 or later is needed)",
                    result);
        }
        ByteBuffer b = probe.buffer();
        int lastOp = b.get(IoUringNative.PROBE_LAST_OP) & 0xFF;
        int[] required = {IoUringNative.OP_NOP, IoUringNative.OP_READV, IoUringNative.OP_WRITEV,
            IoUringNative.OP_SENDMSG, IoUringNative.OP_RECVMSG, IoUringNative.OP_ACCEPT,
            IoUringNative.OP_ASYNC_CANCEL, IoUringNative.OP_CONNECT, IoUringNative.OP_READ, IoUringNative.OP_WRITE,
            IoUringNative.OP_SEND, IoUringNative.OP_RECV, IoUringNative.OP_POLL_ADD};
        StringBuilder missing = new StringBuilder();
        for (int i = 0; i < required.length; i++) {
            int op = required[i];
            int flags = op > lastOp ? 0
                    : b.getShort(IoUringNative.PROBE_OPS + op * IoUringNative.PROBE_OP_SIZE
                            + IoUringNative.PROBE_OP_FLAGS) & 0xFFFF;
            if ((flags & IoUringNative.OP_SUPPORTED) == 0) {
                missing.append(missing.length() == 0 ? "" : ", ").append("IORING_OP_").append(REQUIRED_NAMES[i]);
            }
        }
        if (missing.length() > 0) {
            return new IOException("io_uring of this kernel lacks " + missing
                    + " (Linux 5.6 or later is needed, or a seccomp/LSM policy restricts opcodes)");
        }
        return null;
    }

    /** Turns a failed {@code io_uring_setup} into a cause that says what to check. */
    private static Throwable explainSetupFailure(int result) {
        IOException raw = Errors.newException("io_uring_setup", result);
        String reason;
        if (result == -ErrnoNative.ENOSYS) {
            reason = "the kernel has no io_uring (older than 5.1 or built without CONFIG_IO_URING), or a seccomp "
                    + "filter (e.g. a container runtime's default profile) answers ENOSYS";
        } else if (result == -ErrnoNative.EPERM) {
            reason = "io_uring is forbidden: sysctl kernel.io_uring_disabled=" + readDisabledSysctl()
                    + " (1: only members of kernel.io_uring_group, 2: nobody), or a seccomp filter answers EPERM";
        } else if (result == -ErrnoNative.ENOMEM) {
            reason = "the ring memory could not be locked: RLIMIT_MEMLOCK is too low (ulimit -l; kernels before "
                    + "5.12 charge rings to it)";
        } else if (result == -ErrnoNative.EINVAL) {
            reason = "the kernel rejects the ring parameters (an io_uring too old for IORING_SETUP_CQSIZE, 5.5+)";
        } else {
            reason = "unexpected error";
        }
        IOException cause = new IOException("io_uring_setup failed: " + reason + " (" + raw.getMessage() + ")");
        cause.initCause(raw);
        return cause;
    }

    private static String readDisabledSysctl() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/io_uring_disabled")).trim();
        } catch (IOException | RuntimeException e) {
            return "? (unreadable)";
        }
    }
}
