/*
 * Natives of dev.proactor.jni.internal.FileNative: what file transmission needs from files, and what kind
 * of file a descriptor is (whether its reads and writes can wait for another party).
 *
 * sendfile(2) moves file bytes to a socket inside the kernel; pread(2) is the copying fallback when a
 * file cannot be sent that way. The descriptor of a JDK FileChannel is read through JNI, like the
 * socket channels' in socket.c, and duplicated (close-on-exec) so the engine owns the number it uses.
 * Offsets and counts were checked by the Java side; results are >= 0 or -errno.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Sends up to count bytes of in_fd from offset to out_fd; the file's own offset is not used or
 * changed. Returns the bytes sent (0: offset is at or after the end of the file), or -errno
 * (-EAGAIN: the non-blocking socket is full). Restarted on EINTR: nothing was sent then, and the
 * offset is the caller's, so a repeat is exact. On Linux at most 0x7ffff000 bytes go per call.
 */
static jlong file_sendfile(JNIEnv *env, jclass cls, jint out_fd, jint in_fd, jlong offset, jlong count) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    do {
        off_t position = (off_t) offset;
        result = sendfile(out_fd, in_fd, &position, (size_t) count);
    } while (result < 0 && errno == EINTR);
    return pj_long_result(result);
}

/* pread(2) of up to length bytes at offset into address; 0 at the end of the file. */
static jint file_pread(JNIEnv *env, jclass cls, jint fd, jlong address, jint length, jlong offset) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, pread(fd, PJ_PTR(address), (size_t) length, (off_t) offset));
    return pj_int_result(result);
}

/* A new close-on-exec descriptor for the same open file (fcntl F_DUPFD_CLOEXEC). */
static jint file_dup_cloexec(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(fcntl(fd, F_DUPFD_CLOEXEC, 0));
}

/*
 * The kind of file of fd: 0 for a regular file or a block device (its reads and writes wait for the disk
 * only), 1 for another file that has a position (a character device such as /dev/zero), 2 for a file
 * without one (a pipe, a FIFO, a socket, a terminal: lseek fails with ESPIPE); or -errno. Values
 * match FileNative.KIND_*.
 */
static jint file_kind(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct stat st;
    if (fstat(fd, &st) < 0) {
        return -errno;
    }
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
        return 0;
    }
    if (lseek(fd, 0, SEEK_CUR) < 0) {
        return errno == ESPIPE ? 2 : -errno;
    }
    return 1;
}

/*
 * The fd number of a JDK file channel (sun.nio.ch.FileChannelImpl): its private field
 * `FileDescriptor fd`, whose private `int fd` is the number (-1 once closed). JNI field access is not
 * subject to the module checks that block reflection on java.base internals. Returns -EOPNOTSUPP when
 * the object has no such fields (the Java side only passes channels of java.base), -EBADF when closed.
 */
static jint file_channel_fd(JNIEnv *env, jclass cls, jobject channel) {
    PJ_UNUSED(cls);
    if (channel == NULL) {
        return -EINVAL;
    }
    jclass channel_class = (*env)->GetObjectClass(env, channel);
    jfieldID descriptor_field = (*env)->GetFieldID(env, channel_class, "fd", "Ljava/io/FileDescriptor;");
    (*env)->DeleteLocalRef(env, channel_class);
    if (descriptor_field == NULL) {
        (*env)->ExceptionClear(env); /* NoSuchFieldError: reported as -EOPNOTSUPP instead */
        return -EOPNOTSUPP;
    }
    jobject descriptor = (*env)->GetObjectField(env, channel, descriptor_field);
    if (descriptor == NULL) {
        return -EOPNOTSUPP;
    }
    jclass descriptor_class = (*env)->GetObjectClass(env, descriptor);
    jfieldID number_field = (*env)->GetFieldID(env, descriptor_class, "fd", "I");
    (*env)->DeleteLocalRef(env, descriptor_class);
    if (number_field == NULL) {
        (*env)->ExceptionClear(env);
        (*env)->DeleteLocalRef(env, descriptor);
        return -EOPNOTSUPP;
    }
    jint fd = (*env)->GetIntField(env, descriptor, number_field);
    (*env)->DeleteLocalRef(env, descriptor);
    return fd < 0 ? -EBADF : fd;
}

static const JNINativeMethod methods[] = {
    { "sendfile", "(IIJJ)J", (void *) file_sendfile },
    { "pread", "(IJIJ)I", (void *) file_pread },
    { "dupCloexec", "(I)I", (void *) file_dup_cloexec },
    { "kind", "(I)I", (void *) file_kind },
    { "channelFd", "(Ljava/lang/Object;)I", (void *) file_channel_fd },
};

const struct pj_module pj_file_module = {
    "dev/proactor/jni/internal/FileNative", methods, PJ_COUNT(methods), NULL, 0,
};
