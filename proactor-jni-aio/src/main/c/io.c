/*
 * Natives of dev.proactor.jni.internal.IoNative: read/write/readv/writev/close on any file descriptor.
 * Addresses and lengths were checked by the Java side; results are >= 0 or -errno.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

static jint io_read(JNIEnv *env, jclass cls, jint fd, jlong address, jint length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, read(fd, PJ_PTR(address), (size_t) length));
    return pj_int_result(result);
}

static jint io_write(JNIEnv *env, jclass cls, jint fd, jlong address, jint length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, write(fd, PJ_PTR(address), (size_t) length));
    return pj_int_result(result);
}

/* readv/writev move at most SSIZE_MAX bytes, so the result is a long. */
static jlong io_readv(JNIEnv *env, jclass cls, jint fd, jlong iov_address, jint iov_count) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, readv(fd, (const struct iovec *) PJ_PTR(iov_address), iov_count));
    return pj_long_result(result);
}

static jlong io_writev(JNIEnv *env, jclass cls, jint fd, jlong iov_address, jint iov_count) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, writev(fd, (const struct iovec *) PJ_PTR(iov_address), iov_count));
    return pj_long_result(result);
}

/* Never retried: on Linux the descriptor is released even when close reports EINTR. */
static jint io_close(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(close(fd));
}

static const JNINativeMethod methods[] = {
    { "read", "(IJI)I", (void *) io_read },
    { "write", "(IJI)I", (void *) io_write },
    { "readv", "(IJI)J", (void *) io_readv },
    { "writev", "(IJI)J", (void *) io_writev },
    { "close", "(I)I", (void *) io_close },
};

static const struct pj_constant constants[] = {
    { "IOV_MAX", IOV_MAX },
    { "IOVEC_SIZE", (jlong) sizeof(struct iovec) },
    { "IOVEC_BASE_OFFSET", (jlong) offsetof(struct iovec, iov_base) },
    { "IOVEC_LEN_OFFSET", (jlong) offsetof(struct iovec, iov_len) },
    { "POINTER_SIZE", (jlong) sizeof(void *) },
};

const struct pj_module pj_io_module = {
    "dev/proactor/jni/internal/IoNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
