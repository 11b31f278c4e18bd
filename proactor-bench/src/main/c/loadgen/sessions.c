#define _GNU_SOURCE
#include "sessions.h"

#include "loadgen.h"
#include "pacing.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <unistd.h>

#define PATTERN_PERIOD 251u /* prime: block sizes never line up with it */

struct sockaddr_storage server_addr;
socklen_t server_addr_len;

static uint8_t *pattern;        /* byte i is i % PATTERN_PERIOD; session id shifts its start */
static uint64_t ring_size;      /* blocks that can be in flight per session */
static uint64_t window_bytes;   /* effective window (block for ping-pong) */
static struct pacing pace;      /* --rate */

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

void set_pacing(struct session *sessions, int n, uint64_t t0)
{
    pace = pacing_of((double)cfg.rate, n, window_bytes / (uint64_t)cfg.block);
    for (int i = 0; i < n; i++)
        sessions[i].due = pacing_first_slot(&pace, t0, i, n);
}

/* The pacing heap: a binary min-heap of waiting sessions by due time. */
static void heap_swap(struct worker *w, int a, int b)
{
    struct session *t = w->heap[a];
    w->heap[a] = w->heap[b];
    w->heap[b] = t;
}

static void heap_push(struct worker *w, struct session *s)
{
    if (s->waiting)
        return;
    s->waiting = 1;
    int i = w->heap_len++;
    w->heap[i] = s;
    while (i > 0 && w->heap[(i - 1) / 2]->due > w->heap[i]->due) {
        heap_swap(w, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static struct session *heap_pop(struct worker *w)
{
    struct session *top = w->heap[0];
    w->heap[0] = w->heap[--w->heap_len];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < w->heap_len && w->heap[l]->due < w->heap[m]->due)
            m = l;
        if (r < w->heap_len && w->heap[r]->due < w->heap[m]->due)
            m = r;
        if (m == i)
            break;
        heap_swap(w, i, m);
        i = m;
    }
    top->waiting = 0;
    return top;
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
            if (cfg.rate > 0) {
                if (!s->on_grid) {
                    s->due = pacing_first_send(&pace, s->due, t);
                    s->on_grid = 1;
                }
                if (t < s->due) {
                    heap_push(w, s); /* the window allows it, the schedule not yet */
                    break;
                }
                s->due = pacing_next_slot(&pace, s->due, t);
                blocks = 1;
            }
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

static int reconnect(struct worker *w, struct session *s);

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
    if (cfg.reconnect && s->recvd == s->sent)
        return reconnect(w, s);
    return try_send(w, s);
}

/* Opens the session's connection: a non-blocking connect whose completion comes as EPOLLOUT. */
static int open_connection(struct worker *w, struct session *s)
{
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
    s->out_armed = 1;
    return 0;
}

static int start_connects(struct worker *w)
{
    while (w->connecting < w->batch && w->next_connect < w->nsessions) {
        if (open_connection(w, &w->sessions[w->next_connect++]) < 0)
            return -1;
        w->connecting++;
    }
    return 0;
}

/*
 * --reconnect: the session's block came back whole; its connection closes with a FIN (the server reads the end of
 * the stream and closes its side; on loopback the client's TIME_WAIT ports are reused, net.ipv4.tcp_tw_reuse) and
 * the next block goes on a new one. The stream's offsets carry on across connections, so every byte is still
 * checked. Closing the descriptor takes it out of the epoll set.
 */
static int reconnect(struct worker *w, struct session *s)
{
    close(s->fd);
    s->reconnecting = 1;
    return open_connection(w, s);
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
    if (s->reconnecting) {
        s->reconnecting = 0;
        if (arm_out(w, s, 0) < 0)
            return -1;
        return try_send(w, s);
    }
    w->connecting--;
    atomic_fetch_add_explicit(&w->connected, 1, memory_order_relaxed);
    if (arm_out(w, s, 0) < 0 || start_connects(w) < 0)
        return -1;
    return try_send(w, s);
}

/* --rate: sends for every waiting session whose slot has come; returns the ns until the next slot (max 10 ms). */
static int64_t send_due(struct worker *w, int64_t *wait_ns)
{
    *wait_ns = 10 * 1000 * 1000;
    while (w->heap_len > 0) {
        uint64_t now = now_ns();
        uint64_t due = w->heap[0]->due;
        if (due > now) {
            if ((int64_t)(due - now) < *wait_ns)
                *wait_ns = (int64_t)(due - now);
            break;
        }
        if (try_send(w, heap_pop(w)) < 0)
            return -1;
    }
    return 0;
}

/* epoll_wait with a nanosecond timeout (epoll_pwait2, Linux 5.11+; before that rounded up to milliseconds). */
static int wait_events(struct worker *w, struct epoll_event *evs, int max, int64_t wait_ns)
{
    static _Atomic int no_pwait2;
    if (!atomic_load_explicit(&no_pwait2, memory_order_relaxed)) {
        struct timespec ts = { wait_ns / 1000000000, wait_ns % 1000000000 };
        int n = epoll_pwait2(w->epfd, evs, max, &ts, NULL);
        if (n >= 0 || errno != ENOSYS)
            return n;
        atomic_store_explicit(&no_pwait2, 1, memory_order_relaxed);
    }
    return epoll_wait(w->epfd, evs, max, (int)((wait_ns + 999999) / 1000000));
}

void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct epoll_event evs[256];
    if (cfg.rate > 0) {
        /* Slots can be microseconds apart: the default 50 us timer slack would make every wait late. */
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        w->heap = calloc((size_t)w->nsessions, sizeof *w->heap);
        if (!w->heap) {
            fail("out of memory (pacing heap of %d sessions)", w->nsessions);
            return NULL;
        }
    }
    if (start_connects(w) < 0)
        return NULL;
    while (atomic_load(&phase) != PH_DONE && !atomic_load(&failed)) {
        int64_t wait_ns = 10 * 1000 * 1000;
        if (cfg.rate > 0 && send_due(w, &wait_ns) < 0)
            return NULL;
        int n = wait_events(w, evs, 256, wait_ns);
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
