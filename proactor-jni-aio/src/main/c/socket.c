/*
 * Natives of dev.proactor.jni.internal.SocketNative: non-blocking IPv4/IPv6 sockets.
 *
 * Socket addresses live in native memory the Java side owns (a struct sockaddr_storage-sized block);
 * Java encodes and decodes them with the layout constants below, so C only passes pointers through.
 * Every socket this library creates or accepts is non-blocking and close-on-exec.
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static jint socket_open(JNIEnv *env, jclass cls, jint domain, jint type, jint protocol) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol));
}

static jint socket_bind(JNIEnv *env, jclass cls, jint fd, jlong address, jint address_length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(bind(fd, (const struct sockaddr *) PJ_PTR(address), (socklen_t) address_length));
}

static jint socket_listen(JNIEnv *env, jclass cls, jint fd, jint backlog) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(listen(fd, backlog));
}

/*
 * Not restarted on EINTR: the connection attempt goes on in the background and a second
 * connect would report EALREADY. -EINPROGRESS means "wait for writability, then read SO_ERROR".
 */
static jint socket_connect(JNIEnv *env, jclass cls, jint fd, jlong address, jint address_length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(connect(fd, (const struct sockaddr *) PJ_PTR(address), (socklen_t) address_length));
}

/* Accepts one connection; the peer address goes to peer_address (capacity bytes) unless it is 0. */
static jint socket_accept(JNIEnv *env, jclass cls, jint fd, jlong peer_address, jint capacity) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    socklen_t length = (socklen_t) capacity;
    struct sockaddr *peer = (struct sockaddr *) PJ_PTR(peer_address);
    int result;
    PJ_RESTART_ON_EINTR(result, accept4(fd, peer, peer == NULL ? NULL : &length, SOCK_NONBLOCK | SOCK_CLOEXEC));
    return pj_int_result(result);
}

/* Receives one datagram (or stream bytes); the sender's address goes to from_address unless it is 0. */
static jint socket_recvfrom(JNIEnv *env, jclass cls, jint fd, jlong address, jint length, jint flags,
                            jlong from_address, jint from_capacity) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    socklen_t from_length = (socklen_t) from_capacity;
    struct sockaddr *from = (struct sockaddr *) PJ_PTR(from_address);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, recvfrom(fd, PJ_PTR(address), (size_t) length, flags, from,
                                         from == NULL ? NULL : &from_length));
    return pj_int_result(result);
}

/* Sends to to_address (to_length bytes), or on the connected socket when to_address is 0. */
static jint socket_sendto(JNIEnv *env, jclass cls, jint fd, jlong address, jint length, jint flags,
                          jlong to_address, jint to_length) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    const struct sockaddr *to = (const struct sockaddr *) PJ_PTR(to_address);
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, sendto(fd, PJ_PTR(address), (size_t) length, flags | MSG_NOSIGNAL, to,
                                       to == NULL ? 0 : (socklen_t) to_length));
    return pj_int_result(result);
}

/*
 * recvmsg(2) with flags into iov_count iovecs at iov_address (a connected stream socket: no address, no control
 * data).
 */
static jlong socket_recv_iov(JNIEnv *env, jclass cls, jint fd, jlong iov_address, jint iov_count, jint flags) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct msghdr message = { .msg_iov = (struct iovec *) PJ_PTR(iov_address), .msg_iovlen = (size_t) iov_count };
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, recvmsg(fd, &message, (int) flags));
    return pj_long_result(result);
}

/* sendmsg(2) with flags | MSG_NOSIGNAL from iov_count iovecs at iov_address, to the connected peer. */
static jlong socket_send_iov(JNIEnv *env, jclass cls, jint fd, jlong iov_address, jint iov_count, jint flags) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    struct msghdr message = { .msg_iov = (struct iovec *) PJ_PTR(iov_address), .msg_iovlen = (size_t) iov_count };
    ssize_t result;
    PJ_RESTART_ON_EINTR(result, sendmsg(fd, &message, (int) flags | MSG_NOSIGNAL));
    return pj_long_result(result);
}

static jint socket_shutdown(JNIEnv *env, jclass cls, jint fd, jint how) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return pj_int_result(shutdown(fd, how));
}

static jint socket_set_int_option(JNIEnv *env, jclass cls, jint fd, jint level, jint option, jint value) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    int v = value;
    return pj_int_result(setsockopt(fd, level, option, &v, sizeof v));
}

/* The value of an int option; only for options whose values are never negative (SO_ERROR, buffer sizes, flags). */
static jint socket_get_int_option(JNIEnv *env, jclass cls, jint fd, jint level, jint option) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    int value = 0;
    socklen_t length = sizeof value;
    if (getsockopt(fd, level, option, &value, &length) < 0) {
        return -errno;
    }
    return value;
}

static jint socket_local_address(JNIEnv *env, jclass cls, jint fd, jlong address, jint capacity) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    socklen_t length = (socklen_t) capacity;
    if (getsockname(fd, (struct sockaddr *) PJ_PTR(address), &length) < 0) {
        return -errno;
    }
    return (jint) length;
}

static jint socket_peer_address(JNIEnv *env, jclass cls, jint fd, jlong address, jint capacity) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    socklen_t length = (socklen_t) capacity;
    if (getpeername(fd, (struct sockaddr *) PJ_PTR(address), &length) < 0) {
        return -errno;
    }
    return (jint) length;
}

/*
 * The fd number of a JDK channel (sun.nio.ch.SocketChannelImpl, ServerSocketChannelImpl,
 * DatagramChannelImpl): all keep it in a private int field `fdVal`. Reflection would need
 * --add-opens java.base/sun.nio.ch since Java 17, but JNI field access is not subject to module
 * checks. Returns -EOPNOTSUPP when the object has no such field (another implementation).
 */
static jint socket_channel_fd(JNIEnv *env, jclass cls, jobject channel) {
    PJ_UNUSED(cls);
    if (channel == NULL) {
        return -EINVAL;
    }
    jclass channel_class = (*env)->GetObjectClass(env, channel);
    jfieldID field = (*env)->GetFieldID(env, channel_class, "fdVal", "I");
    (*env)->DeleteLocalRef(env, channel_class);
    if (field == NULL) {
        (*env)->ExceptionClear(env); /* NoSuchFieldError: reported as -EOPNOTSUPP instead */
        return -EOPNOTSUPP;
    }
    return (*env)->GetIntField(env, channel, field);
}

static const JNINativeMethod methods[] = {
    { "socket", "(III)I", (void *) socket_open },
    { "bind", "(IJI)I", (void *) socket_bind },
    { "listen", "(II)I", (void *) socket_listen },
    { "connect", "(IJI)I", (void *) socket_connect },
    { "accept", "(IJI)I", (void *) socket_accept },
    { "recvfrom", "(IJIIJI)I", (void *) socket_recvfrom },
    { "sendto", "(IJIIJI)I", (void *) socket_sendto },
    { "recvIov", "(IJII)J", (void *) socket_recv_iov },
    { "sendIov", "(IJII)J", (void *) socket_send_iov },
    { "shutdown", "(II)I", (void *) socket_shutdown },
    { "setIntOption", "(IIII)I", (void *) socket_set_int_option },
    { "getIntOption", "(III)I", (void *) socket_get_int_option },
    { "localAddress", "(IJI)I", (void *) socket_local_address },
    { "peerAddress", "(IJI)I", (void *) socket_peer_address },
    { "channelFd", "(Ljava/lang/Object;)I", (void *) socket_channel_fd },
};

static const struct pj_constant constants[] = {
    PJ_CONSTANT(AF_INET),
    PJ_CONSTANT(AF_INET6),
    PJ_CONSTANT(SOCK_STREAM),
    PJ_CONSTANT(SOCK_DGRAM),
    PJ_CONSTANT(SOL_SOCKET),
    PJ_CONSTANT(SO_REUSEADDR),
    PJ_CONSTANT(SO_REUSEPORT),
    PJ_CONSTANT(SO_ERROR),
    PJ_CONSTANT(SO_KEEPALIVE),
    PJ_CONSTANT(SO_RCVBUF),
    PJ_CONSTANT(SO_SNDBUF),
    PJ_CONSTANT(SO_BROADCAST),
    PJ_CONSTANT(IPPROTO_TCP),
    PJ_CONSTANT(IPPROTO_UDP),
    PJ_CONSTANT(IPPROTO_IPV6),
    PJ_CONSTANT(TCP_NODELAY),
    PJ_CONSTANT(TCP_KEEPIDLE),
    PJ_CONSTANT(TCP_KEEPINTVL),
    PJ_CONSTANT(TCP_KEEPCNT),
    PJ_CONSTANT(TCP_QUICKACK),
    PJ_CONSTANT(SO_INCOMING_NAPI_ID),
    PJ_CONSTANT(IPV6_V6ONLY),
    PJ_CONSTANT(SHUT_RD),
    PJ_CONSTANT(SHUT_WR),
    PJ_CONSTANT(SHUT_RDWR),
    PJ_CONSTANT(MSG_PEEK),
    PJ_CONSTANT(MSG_TRUNC),
    { "SOCKADDR_STORAGE_SIZE", (jlong) sizeof(struct sockaddr_storage) },
    { "SOCKADDR_FAMILY_OFFSET", (jlong) offsetof(struct sockaddr, sa_family) },
    { "SOCKADDR_IN_SIZE", (jlong) sizeof(struct sockaddr_in) },
    { "SIN_PORT_OFFSET", (jlong) offsetof(struct sockaddr_in, sin_port) },
    { "SIN_ADDR_OFFSET", (jlong) offsetof(struct sockaddr_in, sin_addr) },
    { "SOCKADDR_IN6_SIZE", (jlong) sizeof(struct sockaddr_in6) },
    { "SIN6_PORT_OFFSET", (jlong) offsetof(struct sockaddr_in6, sin6_port) },
    { "SIN6_FLOWINFO_OFFSET", (jlong) offsetof(struct sockaddr_in6, sin6_flowinfo) },
    { "SIN6_ADDR_OFFSET", (jlong) offsetof(struct sockaddr_in6, sin6_addr) },
    { "SIN6_SCOPE_ID_OFFSET", (jlong) offsetof(struct sockaddr_in6, sin6_scope_id) },
};

const struct pj_module pj_socket_module = {
    "dev/proactor/jni/internal/SocketNative", methods, PJ_COUNT(methods), constants, PJ_COUNT(constants),
};
