/*
 * Natives of dev.proactor.jni.internal.ErrnoNative: errno values and their descriptions.
 * The Java side (dev.proactor.jni.Errors) turns -errno results into exceptions.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <string.h>

/* The description of an errno value (strerror_r, GNU variant: returns the text, thread-safe). */
static jstring error_description(JNIEnv *env, jclass cls, jint error) {
    PJ_UNUSED(cls);
    char buffer[256];
    const char *text = strerror_r(error, buffer, sizeof buffer);
    return (*env)->NewStringUTF(env, text);
}

static const JNINativeMethod methods[] = {
    { "strerror", "(I)Ljava/lang/String;", (void *) error_description },
};

static const struct pj_constant constants[] = {
    PJ_CONSTANT(EPERM),
    PJ_CONSTANT(ENOENT),
    PJ_CONSTANT(EINTR),
    PJ_CONSTANT(EIO),
    PJ_CONSTANT(EBADF),
    PJ_CONSTANT(EAGAIN),
    PJ_CONSTANT(EWOULDBLOCK),
    PJ_CONSTANT(ENOMEM),
    PJ_CONSTANT(EACCES),
    PJ_CONSTANT(EFAULT),
    PJ_CONSTANT(EINVAL),
    PJ_CONSTANT(ENFILE),
    PJ_CONSTANT(EMFILE),
    PJ_CONSTANT(EPIPE),
    PJ_CONSTANT(ENOSYS),
    PJ_CONSTANT(ENOTSOCK),
    PJ_CONSTANT(EOPNOTSUPP),
    PJ_CONSTANT(EAFNOSUPPORT),
    PJ_CONSTANT(EADDRINUSE),
    PJ_CONSTANT(EADDRNOTAVAIL),
    PJ_CONSTANT(ENETUNREACH),
    PJ_CONSTANT(ECONNABORTED),
    PJ_CONSTANT(ECONNRESET),
    PJ_CONSTANT(EISCONN),
    PJ_CONSTANT(ENOTCONN),
    PJ_CONSTANT(ETIMEDOUT),
    PJ_CONSTANT(ECONNREFUSED),
    PJ_CONSTANT(EHOSTUNREACH),
    PJ_CONSTANT(EALREADY),
    PJ_CONSTANT(EINPROGRESS),
    PJ_CONSTANT(ECANCELED),
    PJ_CONSTANT(EDESTADDRREQ),
    PJ_CONSTANT(EMSGSIZE),
    PJ_CONSTANT(ESPIPE),
};

const struct pj_module pj_errno_module = {
    "dev/proactor/jni/internal/ErrnoNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
