/*
 * Natives of dev.proactor.jni.internal.EpollNative: the epoll engine's syscalls.
 *
 * epoll_wait writes into an array of struct epoll_event in native memory owned by Java; the Java
 * side reads it with the size and offsets below (the struct is packed on x86-64, so they are fetched,
 * not assumed). An eventfd registered in the epoll set interrupts a blocked epoll_wait.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

static jint epoll_native_create(JNIEnv *env, jclass cls, jint flags) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(epoll_create1(flags));
}

/* Adds, modifies or removes fd; data is returned as-is in the events of fd. */
static jint epoll_control(JNIEnv *env, jclass cls, jint epfd, jint op, jint fd, jint events, jlong data) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct epoll_event event = { .events = (uint32_t) events, .data.u64 = (uint64_t) data };
    return pj_int_result(epoll_ctl(epfd, op, fd, &event));
}

/*
 * Waits for at most max_events events (the array at events_address holds at least that many).
 * Not restarted on EINTR: the caller treats -EINTR as a wake-up with no events, so a timeout is never extended.
 */
static jint epoll_wait_events(JNIEnv *env, jclass cls, jint epfd, jlong events_address, jint max_events,
                              jint timeout_millis) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(epoll_wait(epfd, (struct epoll_event *) PJ_PTR(events_address), max_events,
                                    timeout_millis));
}

static jint eventfd_open(JNIEnv *env, jclass cls, jint initial_value, jint flags) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(eventfd((unsigned int) initial_value, flags));
}

/* Adds value to the counter; returns 0 or -errno (-EAGAIN if a non-blocking counter would overflow). */
static jint eventfd_add(JNIEnv *env, jclass cls, jint fd, jlong value) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    uint64_t counter = (uint64_t) value;
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, write(fd, &counter, sizeof counter));
    return result < 0 ? -errno : 0;
}

/* Reads and resets the counter; returns it (callers keep it below 2^63) or -errno (-EAGAIN when zero). */
static jlong eventfd_take(JNIEnv *env, jclass cls, jint fd) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    uint64_t counter = 0;
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, read(fd, &counter, sizeof counter));
    return result < 0 ? (jlong) -errno : (jlong) counter;
}

static const JNINativeMethod methods[] = {
    { "epollCreate", "(I)I", (void *) epoll_native_create },
    { "epollCtl", "(IIIIJ)I", (void *) epoll_control },
    { "epollWait", "(IJII)I", (void *) epoll_wait_events },
    { "eventfd", "(II)I", (void *) eventfd_open },
    { "eventfdWrite", "(IJ)I", (void *) eventfd_add },
    { "eventfdRead", "(I)J", (void *) eventfd_take },
};

static const struct pj_constant constants[] = {
    PJ_CONSTANT(EPOLL_CLOEXEC),
    PJ_CONSTANT(EPOLL_CTL_ADD),
    PJ_CONSTANT(EPOLL_CTL_MOD),
    PJ_CONSTANT(EPOLL_CTL_DEL),
    PJ_CONSTANT(EPOLLIN),
    PJ_CONSTANT(EPOLLOUT),
    PJ_CONSTANT(EPOLLPRI),
    PJ_CONSTANT(EPOLLERR),
    PJ_CONSTANT(EPOLLHUP),
    PJ_CONSTANT(EPOLLRDHUP),
    PJ_CONSTANT(EPOLLONESHOT),
    PJ_CONSTANT(EPOLLET),
    PJ_CONSTANT(EFD_CLOEXEC),
    PJ_CONSTANT(EFD_NONBLOCK),
    PJ_CONSTANT(EFD_SEMAPHORE),
    { "EPOLL_EVENT_SIZE", (jlong) sizeof(struct epoll_event) },
    { "EPOLL_EVENT_EVENTS_OFFSET", (jlong) offsetof(struct epoll_event, events) },
    { "EPOLL_EVENT_DATA_OFFSET", (jlong) offsetof(struct epoll_event, data) },
};

const struct pj_module pj_epoll_module = {
    "dev/proactor/jni/internal/EpollNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
