package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * Natives and constants of {@code uring.c}: {@code io_uring_setup}, {@code io_uring_enter},
 * {@code io_uring_register} and the ring mappings, without liburing.
 *
 * <p>All calls return {@code >= 0} or {@code -errno} and are unchecked: the engine's ring class
 * ({@code dev.proactor.jni.uring.IoUringRing}) owns the memory it passes. Struct layouts (params, SQE, CQE, probe,
 * msghdr) and flag values are fetched from C by name, once.
 */
public final class IoUringNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    public static final int PARAMS_SIZE = NativeConstants.intValue("URING_PARAMS_SIZE");
    public static final int PARAMS_SQ_ENTRIES = NativeConstants.intValue("URING_PARAMS_SQ_ENTRIES");
    public static final int PARAMS_CQ_ENTRIES = NativeConstants.intValue("URING_PARAMS_CQ_ENTRIES");
    public static final int PARAMS_FLAGS = NativeConstants.intValue("URING_PARAMS_FLAGS");
    public static final int PARAMS_FEATURES = NativeConstants.intValue("URING_PARAMS_FEATURES");
    public static final int PARAMS_SQ_HEAD = NativeConstants.intValue("URING_PARAMS_SQ_HEAD");
    public static final int PARAMS_SQ_TAIL = NativeConstants.intValue("URING_PARAMS_SQ_TAIL");
    public static final int PARAMS_SQ_RING_MASK = NativeConstants.intValue("URING_PARAMS_SQ_RING_MASK");
    public static final int PARAMS_SQ_FLAGS = NativeConstants.intValue("URING_PARAMS_SQ_FLAGS");
    public static final int PARAMS_SQ_ARRAY = NativeConstants.intValue("URING_PARAMS_SQ_ARRAY");
    public static final int PARAMS_CQ_HEAD = NativeConstants.intValue("URING_PARAMS_CQ_HEAD");
    public static final int PARAMS_CQ_TAIL = NativeConstants.intValue("URING_PARAMS_CQ_TAIL");
    public static final int PARAMS_CQ_RING_MASK = NativeConstants.intValue("URING_PARAMS_CQ_RING_MASK");
    public static final int PARAMS_CQ_CQES = NativeConstants.intValue("URING_PARAMS_CQ_CQES");
    public static final long OFF_SQ_RING = NativeConstants.intValue("IORING_OFF_SQ_RING");
    public static final long OFF_CQ_RING = NativeConstants.intValue("IORING_OFF_CQ_RING");
    public static final long OFF_SQES = NativeConstants.intValue("IORING_OFF_SQES");

    public static final int SQE_SIZE = NativeConstants.intValue("URING_SQE_SIZE");
    public static final int SQE_OPCODE = NativeConstants.intValue("URING_SQE_OPCODE");
    public static final int SQE_FLAGS = NativeConstants.intValue("URING_SQE_FLAGS");
    public static final int SQE_IOPRIO = NativeConstants.intValue("URING_SQE_IOPRIO");
    public static final int SQE_FD = NativeConstants.intValue("URING_SQE_FD");
    public static final int SQE_OFF = NativeConstants.intValue("URING_SQE_OFF");
    public static final int SQE_ADDR = NativeConstants.intValue("URING_SQE_ADDR");
    public static final int SQE_LEN = NativeConstants.intValue("URING_SQE_LEN");
    public static final int SQE_OP_FLAGS = NativeConstants.intValue("URING_SQE_OP_FLAGS");
    public static final int SQE_USER_DATA = NativeConstants.intValue("URING_SQE_USER_DATA");

    public static final int CQE_SIZE = NativeConstants.intValue("URING_CQE_SIZE");
    public static final int CQE_USER_DATA = NativeConstants.intValue("URING_CQE_USER_DATA");
    public static final int CQE_RES = NativeConstants.intValue("URING_CQE_RES");
    public static final int CQE_FLAGS = NativeConstants.intValue("URING_CQE_FLAGS");
    public static final int CQE_F_BUFFER = NativeConstants.intValue("IORING_CQE_F_BUFFER");
    public static final int CQE_BUFFER_SHIFT = NativeConstants.intValue("IORING_CQE_BUFFER_SHIFT");

    // Provided-buffer rings (Linux 5.19+): the registration argument, one ring entry, the ring's tail.
    public static final int BUF_REG_SIZE = NativeConstants.intValue("URING_BUF_REG_SIZE");
    public static final int BUF_REG_RING_ADDR = NativeConstants.intValue("URING_BUF_REG_RING_ADDR");
    public static final int BUF_REG_RING_ENTRIES = NativeConstants.intValue("URING_BUF_REG_RING_ENTRIES");
    public static final int BUF_REG_BGID = NativeConstants.intValue("URING_BUF_REG_BGID");
    public static final int BUF_SIZE = NativeConstants.intValue("URING_BUF_SIZE");
    public static final int BUF_ADDR = NativeConstants.intValue("URING_BUF_ADDR");
    public static final int BUF_LEN = NativeConstants.intValue("URING_BUF_LEN");
    public static final int BUF_BID = NativeConstants.intValue("URING_BUF_BID");
    public static final int BUF_RING_TAIL = NativeConstants.intValue("URING_BUF_RING_TAIL");

    public static final int PROBE_SIZE = NativeConstants.intValue("URING_PROBE_SIZE");
    public static final int PROBE_OP_SIZE = NativeConstants.intValue("URING_PROBE_OP_SIZE");
    public static final int PROBE_LAST_OP = NativeConstants.intValue("URING_PROBE_LAST_OP");
    public static final int PROBE_OPS = NativeConstants.intValue("URING_PROBE_OPS");
    public static final int PROBE_OP_FLAGS = NativeConstants.intValue("URING_PROBE_OP_FLAGS");
    public static final int OP_SUPPORTED = NativeConstants.intValue("IO_URING_OP_SUPPORTED");

    /** {@code struct iovec} layout, for the one iovec of a msghdr. */
    public static final int IOVEC_SIZE = IoNative.IOVEC_SIZE;
    public static final int IOVEC_BASE_OFFSET = IoNative.IOVEC_BASE_OFFSET;
    public static final int IOVEC_LEN_OFFSET = IoNative.IOVEC_LEN_OFFSET;

    public static final int MSGHDR_SIZE = NativeConstants.intValue("MSGHDR_SIZE");
    public static final int MSGHDR_NAME = NativeConstants.intValue("MSGHDR_NAME");
    public static final int MSGHDR_NAMELEN = NativeConstants.intValue("MSGHDR_NAMELEN");
    public static final int MSGHDR_IOV = NativeConstants.intValue("MSGHDR_IOV");
    public static final int MSGHDR_IOVLEN = NativeConstants.intValue("MSGHDR_IOVLEN");
    public static final int MSGHDR_FLAGS = NativeConstants.intValue("MSGHDR_FLAGS");

    public static final int OP_NOP = NativeConstants.intValue("IORING_OP_NOP");
    public static final int OP_READV = NativeConstants.intValue("IORING_OP_READV");
    public static final int OP_WRITEV = NativeConstants.intValue("IORING_OP_WRITEV");
    public static final int OP_SENDMSG = NativeConstants.intValue("IORING_OP_SENDMSG");
    public static final int OP_RECVMSG = NativeConstants.intValue("IORING_OP_RECVMSG");
    public static final int OP_ACCEPT = NativeConstants.intValue("IORING_OP_ACCEPT");
    public static final int OP_ASYNC_CANCEL = NativeConstants.intValue("IORING_OP_ASYNC_CANCEL");
    public static final int OP_CONNECT = NativeConstants.intValue("IORING_OP_CONNECT");
    public static final int OP_READ = NativeConstants.intValue("IORING_OP_READ");
    public static final int OP_WRITE = NativeConstants.intValue("IORING_OP_WRITE");
    public static final int OP_SEND = NativeConstants.intValue("IORING_OP_SEND");
    public static final int OP_RECV = NativeConstants.intValue("IORING_OP_RECV");
    /** A one-shot poll of the descriptor: the SQE's op flags carry the events ({@link #POLLIN}, {@link #POLLOUT}). */
    public static final int OP_POLL_ADD = NativeConstants.intValue("IORING_OP_POLL_ADD");
    public static final int POLLIN = NativeConstants.intValue("POLLIN");
    public static final int POLLOUT = NativeConstants.intValue("POLLOUT");

    public static final int SETUP_CQSIZE = NativeConstants.intValue("IORING_SETUP_CQSIZE");
    public static final int SETUP_SUBMIT_ALL = NativeConstants.intValue("IORING_SETUP_SUBMIT_ALL");
    public static final int SETUP_COOP_TASKRUN = NativeConstants.intValue("IORING_SETUP_COOP_TASKRUN");
    public static final int SETUP_SINGLE_ISSUER = NativeConstants.intValue("IORING_SETUP_SINGLE_ISSUER");
    public static final int SETUP_DEFER_TASKRUN = NativeConstants.intValue("IORING_SETUP_DEFER_TASKRUN");
    public static final int SETUP_R_DISABLED = NativeConstants.intValue("IORING_SETUP_R_DISABLED");
    public static final int FEAT_NODROP = NativeConstants.intValue("IORING_FEAT_NODROP");
    public static final int FEAT_EXT_ARG = NativeConstants.intValue("IORING_FEAT_EXT_ARG");
    public static final int FEAT_SUBMIT_STABLE = NativeConstants.intValue("IORING_FEAT_SUBMIT_STABLE");
    /** The kernel reads {@code min_wait_usec} of the enter's extended argument (Linux 6.12+). */
    public static final int FEAT_MIN_TIMEOUT = NativeConstants.intValue("IORING_FEAT_MIN_TIMEOUT");
    /** The kernel takes {@link #RECVSEND_BUNDLE} on a receive (Linux 6.10+). */
    public static final int FEAT_RECVSEND_BUNDLE = NativeConstants.intValue("IORING_FEAT_RECVSEND_BUNDLE");
    public static final int ENTER_GETEVENTS = NativeConstants.intValue("IORING_ENTER_GETEVENTS");
    public static final int REGISTER_PROBE = NativeConstants.intValue("IORING_REGISTER_PROBE");
    public static final int REGISTER_ENABLE_RINGS = NativeConstants.intValue("IORING_REGISTER_ENABLE_RINGS");
    public static final int REGISTER_PBUF_RING = NativeConstants.intValue("IORING_REGISTER_PBUF_RING");
    public static final int RECVSEND_POLL_FIRST = NativeConstants.intValue("IORING_RECVSEND_POLL_FIRST");
    /**
     * A buffer-select {@code RECV} may fill several blocks of the provided-buffer ring, in ring order, each but the
     * last whole (the CQE names the first); it may bring more than the SQE's length when more bytes are queued.
     */
    public static final int RECVSEND_BUNDLE = NativeConstants.intValue("IORING_RECVSEND_BUNDLE");
    public static final int ASYNC_CANCEL_ALL = NativeConstants.intValue("IORING_ASYNC_CANCEL_ALL");
    public static final int IOSQE_ASYNC = NativeConstants.intValue("IOSQE_ASYNC");
    public static final int IOSQE_BUFFER_SELECT = NativeConstants.intValue("IOSQE_BUFFER_SELECT");
    public static final int MSG_NOSIGNAL = NativeConstants.intValue("MSG_NOSIGNAL");
    public static final int MSG_TRUNC = NativeConstants.intValue("MSG_TRUNC");
    public static final int MSG_DONTWAIT = NativeConstants.intValue("MSG_DONTWAIT");
    public static final int SOCK_NONBLOCK = NativeConstants.intValue("SOCK_NONBLOCK");
    public static final int SOCK_CLOEXEC = NativeConstants.intValue("SOCK_CLOEXEC");
    public static final int ETIME = NativeConstants.intValue("URING_ETIME");
    public static final int EBUSY = NativeConstants.intValue("URING_EBUSY");
    public static final int ENOBUFS = NativeConstants.intValue("URING_ENOBUFS");

    // Multishot receive (Linux 6.0+) and accept (5.19+): the flags in the SQE's ioprio; a CQE with F_MORE says the
    // request stays armed.
    public static final int RECV_MULTISHOT = NativeConstants.intValue("IORING_RECV_MULTISHOT");
    public static final int ACCEPT_MULTISHOT = NativeConstants.intValue("IORING_ACCEPT_MULTISHOT");
    public static final int CQE_F_MORE = NativeConstants.intValue("IORING_CQE_F_MORE");

    private IoUringNative() {
    }

    /** {@code io_uring_setup(2)} with the {@code struct io_uring_params} at {@code paramsAddress}; the ring fd. */
    public static native int setup(int entries, long paramsAddress);

    /** Maps {@code length} bytes of the ring {@code fd} at {@code offset}; the address or {@code -errno}. */
    public static native long mmap(int fd, long length, long offset);

    /** Unmaps a mapping made by {@link #mmap}. */
    public static native int munmap(long address, long length);

    /** A direct buffer over {@code length} bytes of mapped memory at {@code address}. */
    public static native ByteBuffer wrap(long address, int length);

    /**
     * {@code io_uring_enter(2)}. With {@link #ENTER_GETEVENTS} a non-negative {@code timeoutNanos} bounds the wait
     * ({@code IORING_ENTER_EXT_ARG}); negative waits without limit. A positive {@code minWaitMicros} (only where the
     * kernel has {@link #FEAT_MIN_TIMEOUT}; 0 otherwise) waits that long for {@code minComplete} completions, then
     * returns with any, or waits on for one. {@code -EINTR} and {@code -ETIME} are returned, not retried.
     */
    public static native int enter(int fd, int toSubmit, int minComplete, int flags, long timeoutNanos,
                                   int minWaitMicros);

    /** {@code io_uring_register(2)}. */
    public static native int register(int fd, int opcode, long argAddress, int nrArgs);

    /**
     * Clears {@code O_NONBLOCK} on {@code fd} (a socket the io_uring engine drives: io_uring never blocks a caller
     * on it, and with the flag a retry from the kernel's worker fails with {@code EAGAIN}).
     */
    public static native int setBlocking(int fd);

    /**
     * Accepts a queued connection on a blocking listening socket if a zero-timeout {@code poll} says one is queued,
     * never changing the socket's file status flags (they are shared with every duplicate of its descriptor). Does
     * not block only while nothing else accepts on the socket between that poll and the {@code accept4}: the caller
     * makes sure no other channel does, no accept of the socket is in a ring, and no other thread tries meanwhile.
     *
     * @return the new (blocking, close-on-exec) descriptor, or {@code -errno}: {@code -EAGAIN} when none is queued
     */
    public static native int tryAccept(int fd, long peerAddress, int peerCapacity);

    /**
     * The inode number of {@code fd}'s file ({@code fstat}): for a socket, which socket it is, the same through every
     * descriptor that names it.
     *
     * @return the inode number, or {@code -errno}
     */
    public static native long inode(int fd);

    /**
     * Closes an accepted socket so that its peer sees a reset ({@code SO_LINGER} with a zero timeout, then
     * {@code close}): for connections a multishot accept took ahead of the application when their listener closes,
     * as the kernel resets those left in a closed listener's backlog.
     *
     * @return 0 or {@code -errno} of the close
     */
    public static native int closeWithReset(int fd);

    /** {@link #tryAccept(int, long, int)} with the peer's address written to {@code peer}. */
    public static int tryAccept(int fd, Sockaddr peer) {
        int result = tryAccept(fd, peer.prepareForOutput(), Sockaddr.CAPACITY);
        Reference.reachabilityFence(peer);
        return result;
    }

    /** Clears a socket address block for the kernel to write (accept, recvmsg) and returns its address. */
    public static long prepareForOutput(Sockaddr sockaddr) {
        return sockaddr.prepareForOutput();
    }
}
