/*
 * Natives of dev.proactor.jni.internal.IoUringNative: the io_uring engine's syscalls, without liburing.
 *
 * C only creates the ring, maps and unmaps its memory and enters the kernel. Submission queue entries are
 * written and completion queue entries read by Java, through direct buffers over the mapped rings (wrap);
 * every struct layout and flag value Java needs is a named constant below, fetched once.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <linux/io_uring.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.12 (min_wait_usec in struct io_uring_getevents_arg); older headers lack it, the value is the kernel's. */
#ifndef IORING_FEAT_MIN_TIMEOUT
#define IORING_FEAT_MIN_TIMEOUT (1U << 15)
#endif

/* Linux 6.10 (receive bundles: one RECV fills several blocks of a provided-buffer ring); the values are the kernel's. */
#ifndef IORING_RECVSEND_BUNDLE
#define IORING_RECVSEND_BUNDLE (1U << 4)
#endif
#ifndef IORING_FEAT_RECVSEND_BUNDLE
#define IORING_FEAT_RECVSEND_BUNDLE (1U << 14)
#endif

/* io_uring_setup(2): params_address points at a zeroed struct io_uring_params Java owns (flags set in it). */
static jint uring_setup(JNIEnv *env, jclass cls, jint entries, jlong params_address) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(syscall(__NR_io_uring_setup, (unsigned) entries, PJ_PTR(params_address)));
}

/* Maps length bytes of the ring at offset (IORING_OFF_SQ_RING, IORING_OFF_CQ_RING, IORING_OFF_SQES). */
static jlong uring_mmap(JNIEnv *env, jclass cls, jint fd, jlong length, jlong offset) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    void *address = mmap(NULL, (size_t) length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                         (off_t) offset);
    return address == MAP_FAILED ? (jlong) -errno : (jlong) (uintptr_t) address;
}

static jint uring_munmap(JNIEnv *env, jclass cls, jlong address, jlong length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(munmap(PJ_PTR(address), (size_t) length));
}

/* A direct buffer over mapped ring memory (NULL with an exception pending if the JVM cannot make one). */
static jobject uring_wrap(JNIEnv *env, jclass cls, jlong address, jint length) {
    PJ_UNUSED(cls);
    return (*env)->NewDirectByteBuffer(env, PJ_PTR(address), (jlong) length);
}

/*
 * io_uring_enter(2). With IORING_ENTER_GETEVENTS and timeout_nanos >= 0 the wait is bounded through
 * IORING_ENTER_EXT_ARG (kernel 5.11+, checked by Java with IORING_FEAT_EXT_ARG); a negative timeout waits
 * without limit. min_wait_usec > 0 (Java passes it only where the kernel has IORING_FEAT_MIN_TIMEOUT, 6.12+)
 * waits that long for min_complete completions and then returns with any, or goes on waiting for one: the
 * field was padding, which older kernels require to be zero. Not restarted on EINTR: the caller treats it as a
 * wake-up, so a timeout is never extended.
 */
static jint uring_enter(JNIEnv *env, jclass cls, jint fd, jint to_submit, jint min_complete, jint flags,
                        jlong timeout_nanos, jint min_wait_usec) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    unsigned enter_flags = (unsigned) flags;
    if ((enter_flags & IORING_ENTER_GETEVENTS) != 0 && (timeout_nanos >= 0 || min_wait_usec > 0)) {
        struct __kernel_timespec timeout = {
            .tv_sec = timeout_nanos / 1000000000L,
            .tv_nsec = timeout_nanos % 1000000000L,
        };
        struct io_uring_getevents_arg arg = {
            .sigmask = 0,
            .sigmask_sz = _NSIG / 8,
            .pad = (uint32_t) (min_wait_usec > 0 ? min_wait_usec : 0), /* min_wait_usec since 6.12 */
            .ts = timeout_nanos >= 0 ? (uint64_t) (uintptr_t) &timeout : 0,
        };
        return pj_int_result(syscall(__NR_io_uring_enter, fd, (unsigned) to_submit, (unsigned) min_complete,
                                     enter_flags | IORING_ENTER_EXT_ARG, &arg, sizeof arg));
    }
    return pj_int_result(syscall(__NR_io_uring_enter, fd, (unsigned) to_submit, (unsigned) min_complete,
                                 enter_flags, NULL, (size_t) (_NSIG / 8)));
}

/* io_uring_register(2), e.g. IORING_REGISTER_PROBE into a struct io_uring_probe Java owns. */
static jint uring_register(JNIEnv *env, jclass cls, jint fd, jint opcode, jlong arg_address, jint nr_args) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(syscall(__NR_io_uring_register, fd, (unsigned) opcode, PJ_PTR(arg_address),
                                 (unsigned) nr_args));
}

/*
 * Clears O_NONBLOCK on fd. io_uring makes its own first attempt without blocking and then polls, whatever the
 * flag; with the flag set, an attempt the kernel retries from a worker thread fails with EAGAIN instead of
 * waiting, which would reach the caller as an error.
 */
static jint uring_set_blocking(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) {
        return -errno;
    }
    return (flags & O_NONBLOCK) == 0 ? 0 : pj_int_result(fcntl(fd, F_SETFL, flags & ~O_NONBLOCK));
}

/*
 * Accepts a connection now if one is queued, without blocking and without touching the listening socket's file
 * status flags (shared by every descriptor of its open file description: an O_NONBLOCK set even for one call makes
 * an ACCEPT that another channel has in a ring fail with EAGAIN). The socket stays blocking, as io_uring's accepts
 * need; accept4 has no per-call non-blocking flag, so a zero-timeout poll says first whether a connection is queued,
 * and accept4 is called only then. That accept4 cannot block as long as nothing else accepts on the socket between
 * the two calls: Java tries only sockets no other channel of the process accepts on, one accept at a time, and
 * holds their listener's lock meanwhile. The new socket is blocking and close-on-exec. Returns the descriptor or
 * -errno (-EAGAIN when none is queued).
 */
static jint uring_try_accept(JNIEnv *env, jclass cls, jint fd, jlong peer_address, jint capacity) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct pollfd ready = { .fd = fd, .events = POLLIN, .revents = 0 };
    int polled;
    PJ_RESTART_ON_EINTR(polled, poll(&ready, 1, 0));
    if (polled < 0) {
        return -errno;
    }
    if ((ready.revents & POLLNVAL) != 0) {
        return -EBADF;
    }
    if ((ready.revents & POLLIN) == 0) {
        return -EAGAIN; /* none queued (an error or hang-up without one is left to the ring's accept to report) */
    }
    socklen_t length = (socklen_t) capacity;
    struct sockaddr *peer = (struct sockaddr *) PJ_PTR(peer_address);
    int result;
    PJ_RESTART_ON_EINTR(result, accept4(fd, peer, peer == NULL ? NULL : &length, SOCK_CLOEXEC));
    return result >= 0 ? result : -errno;
}

/* The inode of fd's file: for a socket, which socket it is, whichever descriptor or duplicate names it. */
static jlong uring_inode(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct stat st;
    return fstat(fd, &st) < 0 ? (jlong) -errno : (jlong) st.st_ino;
}

/*
 * Multishot accept: closes a connection the engine accepted ahead of the application (held, never handed out) so
 * that its peer sees what it sees when a connection left in a closed listener's backlog is dropped, a reset:
 * SO_LINGER with a zero timeout makes close(2) send RST instead of FIN. Returns 0 or -errno (of the close; a
 * failed setsockopt still closes).
 */
static jint uring_close_with_reset(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct linger reset = { .l_onoff = 1, .l_linger = 0 };
    (void) setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, (socklen_t) sizeof reset);
    return pj_int_result(close(fd));
}

static const JNINativeMethod methods[] = {
    { "setBlocking", "(I)I", (void *) uring_set_blocking },
    { "tryAccept", "(IJI)I", (void *) uring_try_accept },
    { "inode", "(I)J", (void *) uring_inode },
    { "setup", "(IJ)I", (void *) uring_setup },
    { "mmap", "(IJJ)J", (void *) uring_mmap },
    { "munmap", "(JJ)I", (void *) uring_munmap },
    { "wrap", "(JI)Ljava/nio/ByteBuffer;", (void *) uring_wrap },
    { "enter", "(IIIIJI)I", (void *) uring_enter },
    { "register", "(IIJI)I", (void *) uring_register },
    /* multishot accept */
    { "closeWithReset", "(I)I", (void *) uring_close_with_reset },
};

#define PJ_OFFSET(name, type, member) { name, (jlong) offsetof(type, member) }

static const struct pj_constant constants[] = {
    /* struct io_uring_params */
    { "URING_PARAMS_SIZE", (jlong) sizeof(struct io_uring_params) },
    PJ_OFFSET("URING_PARAMS_SQ_ENTRIES", struct io_uring_params, sq_entries),
    PJ_OFFSET("URING_PARAMS_CQ_ENTRIES", struct io_uring_params, cq_entries),
    PJ_OFFSET("URING_PARAMS_FLAGS", struct io_uring_params, flags),
    PJ_OFFSET("URING_PARAMS_FEATURES", struct io_uring_params, features),
    PJ_OFFSET("URING_PARAMS_SQ_HEAD", struct io_uring_params, sq_off.head),
    PJ_OFFSET("URING_PARAMS_SQ_TAIL", struct io_uring_params, sq_off.tail),
    PJ_OFFSET("URING_PARAMS_SQ_RING_MASK", struct io_uring_params, sq_off.ring_mask),
    PJ_OFFSET("URING_PARAMS_SQ_FLAGS", struct io_uring_params, sq_off.flags),
    PJ_OFFSET("URING_PARAMS_SQ_ARRAY", struct io_uring_params, sq_off.array),
    PJ_OFFSET("URING_PARAMS_CQ_HEAD", struct io_uring_params, cq_off.head),
    PJ_OFFSET("URING_PARAMS_CQ_TAIL", struct io_uring_params, cq_off.tail),
    PJ_OFFSET("URING_PARAMS_CQ_RING_MASK", struct io_uring_params, cq_off.ring_mask),
    PJ_OFFSET("URING_PARAMS_CQ_CQES", struct io_uring_params, cq_off.cqes),
    PJ_CONSTANT(IORING_OFF_SQ_RING),
    PJ_CONSTANT(IORING_OFF_CQ_RING),
    PJ_CONSTANT(IORING_OFF_SQES),
    /* struct io_uring_sqe */
    { "URING_SQE_SIZE", (jlong) sizeof(struct io_uring_sqe) },
    PJ_OFFSET("URING_SQE_OPCODE", struct io_uring_sqe, opcode),
    PJ_OFFSET("URING_SQE_FLAGS", struct io_uring_sqe, flags),
    PJ_OFFSET("URING_SQE_IOPRIO", struct io_uring_sqe, ioprio),
    PJ_OFFSET("URING_SQE_FD", struct io_uring_sqe, fd),
    PJ_OFFSET("URING_SQE_OFF", struct io_uring_sqe, off),
    PJ_OFFSET("URING_SQE_ADDR", struct io_uring_sqe, addr),
    PJ_OFFSET("URING_SQE_LEN", struct io_uring_sqe, len),
    PJ_OFFSET("URING_SQE_OP_FLAGS", struct io_uring_sqe, rw_flags),
    PJ_OFFSET("URING_SQE_USER_DATA", struct io_uring_sqe, user_data),
    /* struct io_uring_cqe */
    { "URING_CQE_SIZE", (jlong) sizeof(struct io_uring_cqe) },
    PJ_OFFSET("URING_CQE_USER_DATA", struct io_uring_cqe, user_data),
    PJ_OFFSET("URING_CQE_RES", struct io_uring_cqe, res),
    PJ_OFFSET("URING_CQE_FLAGS", struct io_uring_cqe, flags),
    /* provided-buffer rings: struct io_uring_buf_reg, struct io_uring_buf, the tail in struct io_uring_buf_ring */
    { "URING_BUF_REG_SIZE", (jlong) sizeof(struct io_uring_buf_reg) },
    PJ_OFFSET("URING_BUF_REG_RING_ADDR", struct io_uring_buf_reg, ring_addr),
    PJ_OFFSET("URING_BUF_REG_RING_ENTRIES", struct io_uring_buf_reg, ring_entries),
    PJ_OFFSET("URING_BUF_REG_BGID", struct io_uring_buf_reg, bgid),
    { "URING_BUF_SIZE", (jlong) sizeof(struct io_uring_buf) },
    PJ_OFFSET("URING_BUF_ADDR", struct io_uring_buf, addr),
    PJ_OFFSET("URING_BUF_LEN", struct io_uring_buf, len),
    PJ_OFFSET("URING_BUF_BID", struct io_uring_buf, bid),
    PJ_OFFSET("URING_BUF_RING_TAIL", struct io_uring_buf_ring, tail),
    /* struct io_uring_probe */
    { "URING_PROBE_SIZE", (jlong) sizeof(struct io_uring_probe) },
    { "URING_PROBE_OP_SIZE", (jlong) sizeof(struct io_uring_probe_op) },
    PJ_OFFSET("URING_PROBE_LAST_OP", struct io_uring_probe, last_op),
    PJ_OFFSET("URING_PROBE_OPS", struct io_uring_probe, ops),
    PJ_OFFSET("URING_PROBE_OP_FLAGS", struct io_uring_probe_op, flags),
    PJ_CONSTANT(IO_URING_OP_SUPPORTED),
    /* struct msghdr, for RECVMSG and SENDMSG */
    { "MSGHDR_SIZE", (jlong) sizeof(struct msghdr) },
    PJ_OFFSET("MSGHDR_NAME", struct msghdr, msg_name),
    PJ_OFFSET("MSGHDR_NAMELEN", struct msghdr, msg_namelen),
    PJ_OFFSET("MSGHDR_IOV", struct msghdr, msg_iov),
    PJ_OFFSET("MSGHDR_IOVLEN", struct msghdr, msg_iovlen),
    PJ_OFFSET("MSGHDR_FLAGS", struct msghdr, msg_flags),
    /* opcodes */
    PJ_CONSTANT(IORING_OP_NOP),
    PJ_CONSTANT(IORING_OP_READV),
    PJ_CONSTANT(IORING_OP_WRITEV),
    PJ_CONSTANT(IORING_OP_SENDMSG),
    PJ_CONSTANT(IORING_OP_RECVMSG),
    PJ_CONSTANT(IORING_OP_ACCEPT),
    PJ_CONSTANT(IORING_OP_ASYNC_CANCEL),
    PJ_CONSTANT(IORING_OP_CONNECT),
    PJ_CONSTANT(IORING_OP_READ),
    PJ_CONSTANT(IORING_OP_WRITE),
    PJ_CONSTANT(IORING_OP_SEND),
    PJ_CONSTANT(IORING_OP_RECV),
    PJ_CONSTANT(IORING_OP_POLL_ADD),
    /* flags */
    PJ_CONSTANT(IORING_SETUP_CQSIZE),
    PJ_CONSTANT(IORING_SETUP_SUBMIT_ALL),
    PJ_CONSTANT(IORING_SETUP_COOP_TASKRUN),
    PJ_CONSTANT(IORING_SETUP_SINGLE_ISSUER),
    PJ_CONSTANT(IORING_SETUP_DEFER_TASKRUN),
    PJ_CONSTANT(IORING_SETUP_R_DISABLED),
    PJ_CONSTANT(IORING_FEAT_NODROP),
    PJ_CONSTANT(IORING_FEAT_EXT_ARG),
    PJ_CONSTANT(IORING_FEAT_SUBMIT_STABLE),
    PJ_CONSTANT(IORING_FEAT_MIN_TIMEOUT),
    PJ_CONSTANT(IORING_FEAT_RECVSEND_BUNDLE),
    PJ_CONSTANT(IORING_ENTER_GETEVENTS),
    PJ_CONSTANT(IORING_REGISTER_PROBE),
    PJ_CONSTANT(IORING_REGISTER_ENABLE_RINGS),
    PJ_CONSTANT(IORING_REGISTER_PBUF_RING),
    PJ_CONSTANT(IORING_CQE_F_BUFFER),
    PJ_CONSTANT(IORING_CQE_BUFFER_SHIFT),
    PJ_CONSTANT(IOSQE_BUFFER_SELECT),
    PJ_CONSTANT(IORING_RECVSEND_POLL_FIRST),
    PJ_CONSTANT(IORING_RECVSEND_BUNDLE),
    PJ_CONSTANT(IORING_ASYNC_CANCEL_ALL),
    PJ_CONSTANT(IOSQE_ASYNC),
    PJ_CONSTANT(POLLIN),
    PJ_CONSTANT(POLLOUT),
    PJ_CONSTANT(MSG_NOSIGNAL),
    PJ_CONSTANT(MSG_DONTWAIT),
    PJ_CONSTANT(MSG_TRUNC),
    PJ_CONSTANT(SOCK_NONBLOCK),
    PJ_CONSTANT(SOCK_CLOEXEC),
    { "URING_ETIME", ETIME },
    { "URING_EBUSY", EBUSY },
    { "URING_ENOBUFS", ENOBUFS },
    /* multishot receive (Linux 6.0+) and accept (5.19+): their ioprio flags, and the CQE flag saying more follow */
    PJ_CONSTANT(IORING_RECV_MULTISHOT),
    PJ_CONSTANT(IORING_ACCEPT_MULTISHOT),
    PJ_CONSTANT(IORING_CQE_F_MORE),
};

const struct pj_module pj_uring_module = {
    "dev/proactor/jni/internal/IoUringNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
