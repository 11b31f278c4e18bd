/*
 * Natives of dev.proactor.jni.internal.LinuxAioNative: the kernel's native AIO interface
 * (io_setup, io_submit, io_getevents, io_cancel, io_destroy) through syscall(2), without libaio,
 * and what opening files for direct I/O needs (O_DIRECT on a descriptor, the alignment statx reports).
 *
 * The Java side builds struct iocb and reads struct io_event in native memory at the offsets this
 * file exports; it checked every address, length and offset before the call. Results are >= 0 or
 * -errno; C never throws.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * io_setup for up to nr_events requests in flight. Returns the context (an address in this process,
 * so positive) or -errno: -EAGAIN when nr_events would exceed /proc/sys/fs/aio-max-nr, -ENOSYS or
 * -EPERM when the syscall is missing or filtered (seccomp).
 */
static jlong aio_setup(JNIEnv *env, jclass cls, jint nr_events) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    aio_context_t context = 0;
    long result = syscall(SYS_io_setup, (unsigned) nr_events, &context);
    return result < 0 ? (jlong) -errno : (jlong) context;
}

/* io_destroy: cancels what can be cancelled and waits for the rest, then frees the context. */
static jint aio_destroy(JNIEnv *env, jclass cls, jlong context) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(syscall(SYS_io_destroy, (aio_context_t) context));
}

/*
 * io_submit of the one iocb at iocb_address. Returns 1 when the kernel took it, or -errno (-EAGAIN:
 * no room in the context). Not restarted on EINTR: io_submit returns it only before taking the iocb.
 */
static jint aio_submit_one(JNIEnv *env, jclass cls, jlong context, jlong iocb_address) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct iocb *list[1] = { PJ_PTR(iocb_address) };
    return pj_int_result(syscall(SYS_io_submit, (aio_context_t) context, 1L, list));
}

/*
 * io_getevents of between min_nr and max_nr events into the io_event array at events_address,
 * waiting at most timeout_nanos (negative: no limit, 0: only what is there). Returns the number of
 * events, or -errno (-EINTR after a signal, which the caller treats as 0 events).
 */
static jint aio_getevents(JNIEnv *env, jclass cls, jlong context, jint min_nr, jint max_nr, jlong events_address,
                          jlong timeout_nanos) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct timespec timeout = { (time_t) (timeout_nanos / 1000000000L), (long) (timeout_nanos % 1000000000L) };
    return pj_int_result(syscall(SYS_io_getevents, (aio_context_t) context, (long) min_nr, (long) max_nr,
            PJ_PTR(events_address), timeout_nanos < 0 ? NULL : &timeout));
}

/*
 * io_cancel of the iocb at iocb_address. 0: cancelled, its event is in the io_event at
 * result_address and will not come out of io_getevents (older kernels). -EINPROGRESS: cancellation
 * started, the event comes out of io_getevents (newer kernels). -EINVAL / -EAGAIN: the request
 * cannot be cancelled (plain file reads and writes never can) or has already completed.
 */
static jint aio_cancel(JNIEnv *env, jclass cls, jlong context, jlong iocb_address, jlong result_address) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(syscall(SYS_io_cancel, (aio_context_t) context, PJ_PTR(iocb_address),
            PJ_PTR(result_address)));
}

/* Sets or clears O_DIRECT on the open file of fd. -EINVAL: the file system does not do direct I/O. */
static jint aio_set_direct(JNIEnv *env, jclass cls, jint fd, jboolean direct) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) {
        return -errno;
    }
    flags = direct ? (flags | O_DIRECT) : (flags & ~O_DIRECT);
    return pj_int_result(fcntl(fd, F_SETFL, flags));
}

/* Whether O_DIRECT is set on the open file of fd: 1 or 0, or -errno. */
static jint aio_is_direct(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -errno : ((flags & O_DIRECT) != 0);
}

/*
 * statx of fd, asking for STATX_DIOALIGN. Writes six unsigned 32-bit values at out_address: the
 * result mask, stx_dio_mem_align, stx_dio_offset_align (both 0 unless the mask has STATX_DIOALIGN),
 * stx_dev_major, stx_dev_minor (the file system's device) and stx_blksize. Returns 0 or -errno
 * (-ENOSYS: no statx).
 */
static jint aio_dio_alignment(JNIEnv *env, jclass cls, jint fd, jlong out_address) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct statx st = { 0 };
#ifdef STATX_DIOALIGN
    unsigned int want = STATX_BASIC_STATS | STATX_DIOALIGN;
#else
    unsigned int want = STATX_BASIC_STATS;
#endif
    long result = syscall(SYS_statx, fd, "", AT_EMPTY_PATH, want, &st);
    if (result < 0) {
        return -errno;
    }
    uint32_t *out = PJ_PTR(out_address);
    out[0] = st.stx_mask;
#ifdef STATX_DIOALIGN
    out[1] = (st.stx_mask & STATX_DIOALIGN) ? st.stx_dio_mem_align : 0;
    out[2] = (st.stx_mask & STATX_DIOALIGN) ? st.stx_dio_offset_align : 0;
#else
    out[1] = 0;
    out[2] = 0;
#endif
    out[3] = st.stx_dev_major;
    out[4] = st.stx_dev_minor;
    out[5] = st.stx_blksize;
    return 0;
}

static const JNINativeMethod methods[] = {
    { "ioSetup", "(I)J", (void *) aio_setup },
    { "ioDestroy", "(J)I", (void *) aio_destroy },
    { "ioSubmitOne", "(JJ)I", (void *) aio_submit_one },
    { "ioGetevents", "(JIIJJ)I", (void *) aio_getevents },
    { "ioCancel", "(JJJ)I", (void *) aio_cancel },
    { "setDirect", "(IZ)I", (void *) aio_set_direct },
    { "isDirect", "(I)I", (void *) aio_is_direct },
    { "dioAlignment", "(IJ)I", (void *) aio_dio_alignment },
};

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0
#endif

static const struct pj_constant constants[] = {
    PJ_CONSTANT(IOCB_CMD_PREAD),
    PJ_CONSTANT(IOCB_CMD_PWRITE),
    PJ_CONSTANT(IOCB_CMD_PREADV),
    PJ_CONSTANT(IOCB_CMD_PWRITEV),
    PJ_CONSTANT(IOCB_FLAG_RESFD),
    PJ_CONSTANT(STATX_DIOALIGN),
    { "IOCB_SIZE", (jlong) sizeof(struct iocb) },
    { "IOCB_DATA_OFFSET", (jlong) offsetof(struct iocb, aio_data) },
    { "IOCB_OPCODE_OFFSET", (jlong) offsetof(struct iocb, aio_lio_opcode) },
    { "IOCB_FILDES_OFFSET", (jlong) offsetof(struct iocb, aio_fildes) },
    { "IOCB_BUF_OFFSET", (jlong) offsetof(struct iocb, aio_buf) },
    { "IOCB_NBYTES_OFFSET", (jlong) offsetof(struct iocb, aio_nbytes) },
    { "IOCB_OFFSET_OFFSET", (jlong) offsetof(struct iocb, aio_offset) },
    { "IOCB_FLAGS_OFFSET", (jlong) offsetof(struct iocb, aio_flags) },
    { "IOCB_RESFD_OFFSET", (jlong) offsetof(struct iocb, aio_resfd) },
    { "IO_EVENT_SIZE", (jlong) sizeof(struct io_event) },
    { "IO_EVENT_DATA_OFFSET", (jlong) offsetof(struct io_event, data) },
    { "IO_EVENT_RES_OFFSET", (jlong) offsetof(struct io_event, res) },
};

const struct pj_module pj_aio_module = {
    "dev/proactor/jni/internal/LinuxAioNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
