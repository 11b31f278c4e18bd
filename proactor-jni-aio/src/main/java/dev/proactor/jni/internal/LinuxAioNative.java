package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;

/**
 * Natives and constants of {@code aio.c}: the kernel's native AIO calls ({@code io_setup}, {@code io_submit},
 * {@code io_getevents}, {@code io_cancel}, {@code io_destroy}; no libaio), {@code O_DIRECT} on a descriptor, and
 * the direct-I/O alignment {@code statx} reports.
 *
 * <p>All calls return {@code >= 0} or {@code -errno}. The {@code long} addresses (an iocb, an io_event array, a
 * result block) are unchecked: the engine builds them in {@link NativeMemory} it owns and keeps reachable, and
 * checks every buffer it puts in an iocb with {@link DirectBuffers} first (see the package documentation).
 */
public final class LinuxAioNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    public static final int IOCB_CMD_PREAD = NativeConstants.intValue("IOCB_CMD_PREAD");
    public static final int IOCB_CMD_PWRITE = NativeConstants.intValue("IOCB_CMD_PWRITE");
    public static final int IOCB_CMD_PREADV = NativeConstants.intValue("IOCB_CMD_PREADV");
    public static final int IOCB_CMD_PWRITEV = NativeConstants.intValue("IOCB_CMD_PWRITEV");
    public static final int IOCB_FLAG_RESFD = NativeConstants.intValue("IOCB_FLAG_RESFD");
    /** 0 when the headers the library was built with had no {@code STATX_DIOALIGN}. */
    public static final int STATX_DIOALIGN = NativeConstants.intValue("STATX_DIOALIGN");

    public static final int IOCB_SIZE = NativeConstants.intValue("IOCB_SIZE");
    public static final int IOCB_DATA_OFFSET = NativeConstants.intValue("IOCB_DATA_OFFSET");
    public static final int IOCB_OPCODE_OFFSET = NativeConstants.intValue("IOCB_OPCODE_OFFSET");
    public static final int IOCB_FILDES_OFFSET = NativeConstants.intValue("IOCB_FILDES_OFFSET");
    public static final int IOCB_BUF_OFFSET = NativeConstants.intValue("IOCB_BUF_OFFSET");
    public static final int IOCB_NBYTES_OFFSET = NativeConstants.intValue("IOCB_NBYTES_OFFSET");
    public static final int IOCB_OFFSET_OFFSET = NativeConstants.intValue("IOCB_OFFSET_OFFSET");
    public static final int IOCB_FLAGS_OFFSET = NativeConstants.intValue("IOCB_FLAGS_OFFSET");
    public static final int IOCB_RESFD_OFFSET = NativeConstants.intValue("IOCB_RESFD_OFFSET");
    public static final int IO_EVENT_SIZE = NativeConstants.intValue("IO_EVENT_SIZE");
    public static final int IO_EVENT_DATA_OFFSET = NativeConstants.intValue("IO_EVENT_DATA_OFFSET");
    public static final int IO_EVENT_RES_OFFSET = NativeConstants.intValue("IO_EVENT_RES_OFFSET");

    /** Bytes {@link #dioAlignment(int, long)} writes: six unsigned 32-bit values. */
    public static final int DIO_ALIGNMENT_SIZE = 6 * Integer.BYTES;

    private LinuxAioNative() {
    }

    /**
     * {@code io_setup(2)} for up to {@code nrEvents} requests in flight.
     *
     * @return the context ({@code > 0}), or {@code -errno}: {@code -EAGAIN} when the system-wide limit
     *     {@code /proc/sys/fs/aio-max-nr} would be exceeded, {@code -ENOSYS}/{@code -EPERM} when the call is
     *     missing or filtered (seccomp)
     */
    public static native long ioSetup(int nrEvents);

    /** {@code io_destroy(2)}: waits for what is in flight, then frees the context. */
    public static native int ioDestroy(long context);

    /** {@code io_submit(2)} of the one iocb at {@code iocbAddress}; 1, or {@code -errno}. Unchecked. */
    public static native int ioSubmitOne(long context, long iocbAddress);

    /**
     * {@code io_getevents(2)} into {@code maxNr} io_events at {@code eventsAddress}; unchecked.
     *
     * @param timeoutNanos negative: no limit; 0: only what is there
     * @return events filled in, or {@code -errno} ({@code -EINTR} on a signal)
     */
    public static native int ioGetevents(long context, int minNr, int maxNr, long eventsAddress, long timeoutNanos);

    /**
     * {@code io_cancel(2)} of the iocb at {@code iocbAddress}; unchecked.
     *
     * @return 0 when cancelled with the event written to {@code resultAddress} (it will not come out of
     *     io_getevents); {@code -EINPROGRESS} when cancellation started and the event will come out of
     *     io_getevents; {@code -EINVAL}/{@code -EAGAIN} when it cannot be cancelled (file reads and writes)
     */
    public static native int ioCancel(long context, long iocbAddress, long resultAddress);

    /** Sets or clears {@code O_DIRECT} on the open file of {@code fd}; {@code -EINVAL} when unsupported there. */
    public static native int setDirect(int fd, boolean direct);

    /** 1 if {@code O_DIRECT} is set on the open file of {@code fd}, 0 if not, or {@code -errno}. */
    public static native int isDirect(int fd);

    /**
     * {@code statx(2)} of {@code fd} with {@code STATX_DIOALIGN}: writes {@link #DIO_ALIGNMENT_SIZE} bytes at
     * {@code outAddress} (mask, memory alignment, offset alignment, device major, device minor, block size).
     * Unchecked.
     */
    public static native int dioAlignment(int fd, long outAddress);
}
