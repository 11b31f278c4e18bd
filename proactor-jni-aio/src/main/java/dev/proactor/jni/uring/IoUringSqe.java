package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;

/**
 * The SQE a request's next step needs, as a value: what the operation classes ({@link IoUringOps} and the classes of
 * each kind) answer, and what {@link IoUringStarter} alone writes into the ring, with the direction's slot as user
 * data. One per {@link IoUringDirection}, reused by every step of every request of that direction (no allocation
 * per operation); an operation class that finished its request without the ring answers null instead.
 *
 * <p>Guarded by the channel's monitor, like its direction: described and written by the same thread while it holds
 * the monitor, and not read after.
 */
final class IoUringSqe {

    int opcode;
    /** {@code IOSQE_*} flags. */
    int sqeFlags;
    int ioprio;
    int fd;
    long address;
    int length;
    long offset;
    /** The opcode's own flags ({@code msg_flags}, {@code poll_events}, {@code accept_flags}, ...). */
    int opFlags;

    // ---------------------------------------------------------------- multishot accept (IoUringMultishotAccept)

    /**
     * Answered instead of an SQE when the request waits for an SQE already in the ring that is not its own (a
     * multishot accept's): nothing is written, and the request stays pending. Never written itself.
     */
    static final IoUringSqe ALREADY_IN_RING = new IoUringSqe();

    /**
     * The slot to write as the SQE's user data instead of the direction's request's: a multishot accept's own,
     * which outlives the request that armed it; or -1. Reset by {@link #describe}.
     */
    int slot = -1;

    /**
     * Describes an SQE without {@code IOSQE_*} flags (the arguments of {@code io_uring_prep_rw} and the opcode's
     * flags).
     *
     * @return this descriptor
     */
    IoUringSqe describe(int opcode, int ioprio, int fd, long address, int length, long offset, int opFlags) {
        this.opcode = opcode;
        this.sqeFlags = 0;
        this.ioprio = ioprio;
        this.fd = fd;
        this.address = address;
        this.length = length;
        this.offset = offset;
        this.opFlags = opFlags;
        this.slot = -1;
        return this;
    }

    /**
     * Describes a one-shot {@code POLL_ADD} for {@code events} ({@link IoUringNative#POLLIN} or
     * {@link IoUringNative#POLLOUT}) on {@code fd}.
     *
     * @return this descriptor
     */
    IoUringSqe poll(int fd, int events) {
        return describe(IoUringNative.OP_POLL_ADD, 0, fd, 0, 0, 0, events);
    }

    /**
     * Describes a stream {@code RECV} on {@code fd} that takes a block of the engine's provided-buffer ring when
     * bytes arrive ({@code IOSQE_BUFFER_SELECT}), reading at most {@code length} bytes.
     *
     * @return this descriptor
     */
    IoUringSqe providedRecv(int fd, int ioprio, int length) {
        describe(IoUringNative.OP_RECV, ioprio, fd, 0, length, 0, 0);
        sqeFlags = IoUringNative.IOSQE_BUFFER_SELECT;
        return this;
    }
}
