package dev.proactor.jni.uring;

import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;

/**
 * One direction (input or output) of one channel: the request in the ring, if any, and the native memory its SQE
 * points at. That memory (iovecs, bounce block, socket address, msghdr) must stay untouched from submission until
 * the request's CQE, so each direction has its own, made on first use and reused: steady state allocates nothing.
 * Guarded by the channel's monitor.
 */
final class IoUringDirection {

    final IoUringChannel channel;

    /** The request in the ring, or null. */
    IoRequest request;
    /** Its slot (the SQE's user data) while {@link #request} is set. */
    int slot = -1;
    /** The reason of a cancel asked while the request was in the ring, or null. */
    Throwable cancelReason;

    /** How the SQE in flight was built, for its completion: see {@link IoUringOps}. */
    int mode;
    /** Buffer position the single-buffer SQE started at. */
    int startPosition;
    /** Bytes the stream read in flight asked for (its buffer, its iovecs together, or its bounce block). */
    long asked;
    /**
     * Input only: the engine's turn count ({@link IoUringTryFirst#turns()}) when this direction's last
     * stream read took fewer bytes than it asked for, or its last datagram receive tried at start found none (the
     * receive queue was empty then), or -1. While no leader turn has begun since, a read or receive started now (in
     * practice from the callback of that read, as NIO.2 programs do) goes to the ring without trying the socket
     * first: the try would find nothing. Whatever the turn, a stream {@code RECV} after such a read polls first
     * ({@code IORING_RECVSEND_POLL_FIRST}): the kernel arms its poll without a receive that would find nothing, and
     * a poll armed on a socket that has bytes fires at once. Always safe: the ring's RECV or RECVMSG completes once
     * data, an end of stream or an error are there. Kept across requests (not reset by {@link #clear()}).
     * Guarded by the channel's monitor.
     */
    long drainedAtTurn = -1;
    /**
     * Input of a stream only: whether its last read brought a block of the provided-buffer ring's size or more
     * ({@link IoUringFeatures#BLOCK_SIZE}): a stream of bulk data, whose next read of the ring asks for a receive
     * bundle ({@link IoUringBundles}); a connection of small messages never does, and pays nothing for it. Kept
     * across requests. Guarded by the channel's monitor.
     */
    boolean bulk;
    /**
     * The block of the engine's provided-buffer ring the kernel filled for the CQE being handled (a receive bundle's
     * first, see {@link IoUringBundles}), or -1: set by {@link IoUringReaper} around the handling of that one CQE,
     * which gives the blocks back right after it.
     */
    int selectedBlock = -1;
    /** Bytes the datagram receive in flight has room for (in its buffer, or in the bounce block). */
    int staged;

    /**
     * Input of a stream only: its multishot receive ({@code proactor.uring.multishotRecv}), made by the first read
     * that arms one, or null. Kept across requests (not reset by {@link #clear()}); its CQEs carry its own slot, not
     * {@link #slot}: a read waiting for it has no SQE, and no slot, of its own.
     */
    IoUringMultishotRecv multishot;

    /** The direct buffer's address, iovecs, bounce block and socket address the SQE in flight points at. */
    final NativeScratch scratch = new NativeScratch();
    /** A msghdr, one iovec and a socklen_t, for recvmsg, sendmsg and accept. */
    private NativeMemory message;

    /**
     * The SQE of the request's current step, as the operation classes describe it for {@link IoUringStarter} to
     * write: one per direction, reused for every step (no allocation per operation).
     */
    final IoUringSqe sqe = new IoUringSqe();

    /** State of a transmission on this (output) direction. */
    final IoUringTransmit.State transmit = new IoUringTransmit.State();

    /**
     * Input of a listening socket whose accepts are multishot accepts: the armed accept and the connections it took
     * ahead of the application (see {@link IoUringMultishotAccept}); made at the first accept, else null. Kept
     * across requests, with a slot of its own, as {@link #multishot}.
     */
    IoUringMultishotAccept multishotAccept;

    IoUringDirection(IoUringChannel channel) {
        this.channel = channel;
    }

    /** The multishot receive of this (stream input) direction, made on first use. */
    IoUringMultishotRecv multishot() {
        if (multishot == null) {
            multishot = new IoUringMultishotRecv();
        }
        return multishot;
    }

    /**
     * This direction's multishot request, whichever it is (a stream's input has at most a receive, a listener's at
     * most an accept), or null if none was made.
     */
    IoUringMultishot multishotRequest() {
        return multishot != null ? multishot : multishotAccept;
    }

    /** msghdr at offset 0, one iovec after it, then a 4-byte socklen_t. */
    NativeMemory message() {
        if (message == null) {
            message = NativeMemory.allocate(IoUringNative.MSGHDR_SIZE + IoUringNative.IOVEC_SIZE + 8);
        }
        return message;
    }

    static int iovecOffset() {
        return IoUringNative.MSGHDR_SIZE;
    }

    static int socklenOffset() {
        return IoUringNative.MSGHDR_SIZE + IoUringNative.IOVEC_SIZE;
    }

    /** Forgets the request (it completed); keeps the scratch memory. */
    void clear() {
        request = null;
        slot = -1;
        cancelReason = null;
        mode = 0;
        staged = 0;
    }
}
