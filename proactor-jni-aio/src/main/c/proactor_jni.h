/*
 * Common declarations of the proactor JNI library.
 *
 * Every C file implements the natives of exactly one Java class and describes them in one
 * `struct pj_module`: the class, its JNINativeMethod table and the constants the Java side
 * fetches once at class initialisation. library.c lists the modules; JNI_OnLoad registers them.
 * Adding an engine (linux_aio.c, io_uring.c) means writing its file and adding its module to
 * that list; nothing else changes.
 *
 * Conventions at the boundary (see README.md in this directory):
 *  - JNI signatures use primitives only (fd as jint, native address as jlong, lengths as jint),
 *    except where a JDK object must be inspected (buffer address, channel fd).
 *  - A call returns a value >= 0 on success or -errno on failure; C never throws.
 *  - C does not validate addresses or lengths: the Java side checks them before every call.
 */
#ifndef PROACTOR_JNI_H
#define PROACTOR_JNI_H

#include <jni.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PROACTOR_ABI_VERSION
#error "PROACTOR_ABI_VERSION must be defined by the build (-DPROACTOR_ABI_VERSION=n)"
#endif

/* One named integer constant the Java side looks up once (errno values, flags, struct layouts). */
struct pj_constant {
    const char *name;
    jlong value;
};

/* The natives and constants of one Java class. */
struct pj_module {
    const char *class_name; /* JNI internal form, e.g. "dev/proactor/jni/internal/EpollNative" */
    const JNINativeMethod *methods;
    int method_count;
    const struct pj_constant *constants;
    int constant_count;
};

#define PJ_COUNT(array) ((int) (sizeof(array) / sizeof((array)[0])))
#define PJ_CONSTANT(c) { #c, (jlong) (c) }
#define PJ_UNUSED(x) ((void) (x))

/* A Java long holding a native address, as a C pointer. */
#define PJ_PTR(address) ((void *) (uintptr_t) (address))

/* Turns a syscall-style result (-1 and errno) into the >= 0 / -errno convention. */
static inline jint pj_int_result(long result) {
    return result < 0 ? -errno : (jint) result;
}

static inline jlong pj_long_result(long result) {
    return result < 0 ? (jlong) -errno : (jlong) result;
}

/* Runs a syscall expression again while it fails with EINTR; for calls that are safe to repeat. */
#define PJ_RESTART_ON_EINTR(result, expression) \
    do { \
        (result) = (expression); \
    } while ((result) < 0 && errno == EINTR)

/* The modules, defined one per C file. */
extern const struct pj_module pj_library_module;
extern const struct pj_module pj_errno_module;
extern const struct pj_module pj_buffer_module;
extern const struct pj_module pj_io_module;
extern const struct pj_module pj_socket_module;
extern const struct pj_module pj_epoll_module;
extern const struct pj_module pj_file_module;
extern const struct pj_module pj_aio_module;
extern const struct pj_module pj_uring_module;

#endif /* PROACTOR_JNI_H */
