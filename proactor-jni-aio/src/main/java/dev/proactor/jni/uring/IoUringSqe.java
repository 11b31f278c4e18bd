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
    /**
     * Whether this is the SQE that arms the direction's multishot request, its receive ({@link #multishotRecv}) or
     * its accept ({@link #multishotAccept}): written with a slot of the multishot's own as user data, which outlives
     * the request that armed it ({@link IoUringMultishot}), not with the request's.
     */
    boolean multishot;

    /**
     * Not an SQE: the answer for a request that waits for its direction's armed multishot request (a read for the
     * receive, an accept for the accept), pending with no SQE and no slot of its own ({@link IoUringStarter} writes
     * nothing for it; its cancel ends it at once). Never written to.
     */
    static final IoUringSqe WAITS_FOR_MULTISHOT = new IoUringSqe();

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
        this.multishot = false;
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

    /**
     * Describes the multishot {@code RECV} of a stream's input ({@code IORING_RECV_MULTISHOT}, buffer select): each
     * arrival takes a whole block of the engine's provided-buffer ring (the length must be zero before Linux 6.10).
     *
     * @return this descriptor
     */
    IoUringSqe multishotRecv(int fd) {
        providedRecv(fd, IoUringNative.RECV_MULTISHOT, 0);
        multishot = true;
        return this;
    }

    /**
     * Describes the multishot {@code ACCEPT} of a listening socket ({@code IORING_ACCEPT_MULTISHOT}, no address: the
     * kernel would write every connection's into the same block, so the peer is asked per connection); blocking
     * sockets, see {@link IoUringNative#setBlocking}.
     *
     * @return this descriptor
     */
    IoUringSqe multishotAccept(int fd) {
        describe(IoUringNative.OP_ACCEPT, IoUringNative.ACCEPT_MULTISHOT, fd, 0, 0, 0, IoUringNative.SOCK_CLOEXEC);
        multishot = true;
        return this;
    }
}
