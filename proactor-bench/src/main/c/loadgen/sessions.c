#define _GNU_SOURCE
#include "sessions.h"

#include "loadgen.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#define PATTERN_PERIOD 251u /* prime: block sizes never line up with it */

struct sockaddr_storage server_addr;
socklen_t server_addr_len;

static uint8_t *pattern;        /* byte i is i % PATTERN_PERIOD; session id shifts its start */
static uint64_t ring_size;      /* blocks that can be in flight per session */
static uint64_t window_bytes;   /* effective window (block for ping-pong) */

/* Single writer (the owning worker), read by the main thread. */
static inline void add_relaxed(_Atomic uint64_t *c, uint64_t n)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

uint64_t set_stream(uint64_t window)
{
    window_bytes = window;
    ring_size = window_bytes / (uint64_t)cfg.block + 1;
    size_t pattern_len = PATTERN_PERIOD + (size_t)(window_bytes > RBUF_SIZE ? window_bytes : RBUF_SIZE);
    pattern = malloc(pattern_len);
    if (!pattern) {
        fprintf(stderr, "loadgen: out of memory (pattern of %zu bytes)\n", pattern_len);
        exit(1);
    }
    for (size_t i = 0; i < pattern_len; i++)
        pattern[i] = (uint8_t)(i % PATTERN_PERIOD);
    return ring_size;
}

static int arm_out(struct worker *w, struct session *s, int on)
{
    if (s->out_armed == on)
        return 0;
    struct epoll_event ev = { .events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = s };
    if (epoll_ctl(w->epfd, EPOLL_CTL_MOD, s->fd, &ev) < 0) {
        fail("epoll_ctl(MOD) failed on session %u: %s", s->id, strerror(errno));
        return -1;
    }
    s->out_armed = (uint8_t)on;
    return 0;
}

/*
 * Write as much of the stream as the window allows: one write per block, or with
 * --coalesce one write for every whole block that fits.
 */
static int try_send(struct worker *w, struct session *s)
{
    const uint64_t block = (uint64_t)cfg.block;
    for (;;) {
        uint64_t off = s->sent % block;
        size_t n;
        if (off == 0) {
            uint64_t room = window_bytes - (s->sent - s->recvd);
            if (room < block)
                break;
            uint64_t blocks = cfg.coalesce ? room / block : 1;
            uint64_t t = now_ns();
            for (uint64_t i = 0; i < blocks; i++)
                s->stamps[(s->sent / block + i) % ring_size] = t;
            n = (size_t)(blocks * block);
        } else {
            n = (size_t)(block - off);
        }
        ssize_t k = send(s->fd, pattern + (s->sent + s->id) % PATTERN_PERIOD, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return arm_out(w, s, 1);
            if (errno == EINTR)
                continue;
            fail("send on session %u failed after %llu bytes: %s", s->id,
                 (unsigned long long)s->sent, strerror(errno));
            return -1;
        }
        s->sent += (uint64_t)k;
        if ((size_t)k < n)
            return arm_out(w, s, 1);
    }
    return arm_out(w, s, 0);
}

static int verify(const struct session *s, const uint8_t *data, size_t n)
{
    const uint8_t *expect = pattern + (s->recvd + s->id) % PATTERN_PERIOD;
    if (memcmp(data, expect, n) == 0)
        return 0;
    size_t i = 0;
    while (data[i] == expect[i])
        i++;
    fail("data mismatch on session %u at stream offset %llu: expected 0x%02x, got 0x%02x", s->id,
         (unsigned long long)(s->recvd + i), expect[i], data[i]);
    return -1;
}

static int on_readable(struct worker *w, struct session *s, int measuring)
{
    ssize_t n = recv(s->fd, w->rbuf, RBUF_SIZE, 0);
    if (n == 0) {
        fail("server closed session %u after echoing %llu bytes", s->id, (unsigned long long)s->recvd);
        return -1;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return 0;
        fail("recv on session %u failed: %s", s->id, strerror(errno));
        return -1;
    }
    if ((uint64_t)n > s->sent - s->recvd) {
        fail("session %u: server echoed %zd bytes but only %llu were outstanding", s->id, n,
             (unsigned long long)(s->sent - s->recvd));
        return -1;
    }
    if (verify(s, w->rbuf, (size_t)n) < 0)
        return -1;
    const uint64_t block = (uint64_t)cfg.block;
    uint64_t first = s->recvd / block;
    s->recvd += (uint64_t)n;
    uint64_t done = s->recvd / block;
    if (done > first) {
        if (measuring) {
            uint64_t t = now_ns();
            for (uint64_t i = first; i < done; i++)
                hist_record(w->hist, t - s->stamps[i % ring_size]);
        }
        add_relaxed(&w->msgs, done - first);
        add_relaxed(&s->done, done - first);
        if (!s->echoed) {
            s->echoed = 1;
            atomic_fetch_add_explicit(&w->echoed, 1, memory_order_relaxed);
        }
    }
    add_relaxed(&w->bytes, (uint64_t)n);
    return try_send(w, s);
}

static int start_connects(struct worker *w)
{
    while (w->connecting < w->batch && w->next_connect < w->nsessions) {
        struct session *s = &w->sessions[w->next_connect++];
        s->fd = socket(server_addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (s->fd < 0) {
            fail("socket() for session %u failed: %s", s->id, strerror(errno));
            return -1;
        }
        int one = 1;
        setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(s->fd, (struct sockaddr *)&server_addr, server_addr_len) < 0 && errno != EINPROGRESS) {
            fail("connect for session %u to %s:%d failed: %s", s->id, cfg.host, cfg.port, strerror(errno));
            return -1;
        }
        /* Completion (even an immediate one) is reported as EPOLLOUT. */
        struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = s };
        if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, s->fd, &ev) < 0) {
            fail("epoll_ctl(ADD) failed: %s", strerror(errno));
            return -1;
        }
        s->state = S_CONNECTING;
        w->connecting++;
    }
    return 0;
}

static int on_connected(struct worker *w, struct session *s)
{
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        err = errno;
    if (err != 0) {
        fail("connect for session %u to %s:%d failed: %s", s->id, cfg.host, cfg.port, strerror(err));
        return -1;
    }
    s->state = S_ACTIVE;
    s->out_armed = 1;
    w->connecting--;
    atomic_fetch_add_explicit(&w->connected, 1, memory_order_relaxed);
    if (arm_out(w, s, 0) < 0 || start_connects(w) < 0)
        return -1;
    return try_send(w, s);
}

void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct epoll_event evs[256];
    if (start_connects(w) < 0)
        return NULL;
    while (atomic_load(&phase) != PH_DONE && !atomic_load(&failed)) {
        int n = epoll_wait(w->epfd, evs, 256, 10);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("epoll_wait failed: %s", strerror(errno));
            return NULL;
        }
        int measuring = atomic_load_explicit(&phase, memory_order_relaxed) == PH_MEASURE;
        for (int i = 0; i < n; i++) {
            struct session *s = evs[i].data.ptr;
            uint32_t e = evs[i].events;
            if (s->state == S_CONNECTING) {
                if (on_connected(w, s) < 0)
                    return NULL;
                continue;
            }
            if ((e & (EPOLLIN | EPOLLERR | EPOLLHUP)) && on_readable(w, s, measuring) < 0)
                return NULL;
            if ((e & EPOLLOUT) && try_send(w, s) < 0)
                return NULL;
        }
    }
    return NULL;
}
