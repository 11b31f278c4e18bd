/*
 * epoll_echo - minimal C epoll echo server, the "practical limit of the machine" baseline.
 *
 *   epoll_echo --port P [--host 127.0.0.1] [--threads T] [--delay-us D]
 *
 * T threads, each with its own epoll instance and its own SO_REUSEPORT listener on the
 * same port (the kernel spreads connections over them). Level-triggered: one read per
 * readiness event into a per-thread buffer, busy-spin D microseconds, write it back; only
 * a partial write keeps the remainder and waits for EPOLLOUT (not reading meanwhile).
 *
 * Prints "listening on H:P server=c-epoll threads=T" when ready; SIGTERM/SIGINT stop it.
 */
#define _GNU_SOURCE
#define SERVER_NAME "c-epoll"
#define PROGRAM "epoll_echo"
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include "echo_server_common.h"

#define BUF_SIZE (64 * 1024)
#define MAX_EVENTS 256

struct conn {
    int fd;
    size_t pend_off;
    size_t pend_len;
    size_t pend_cap;
    uint8_t *pend;
};

struct server_thread {
    pthread_t tid;
    int epfd;
    int lfd;
    uint8_t *buf;
    unsigned long accepted;
    unsigned long errors;
};

static int stop_fd = -1;

/* Distinct addresses that tag the listener and the stop eventfd in epoll data. */
static struct conn listener_tag, stop_tag;

static void close_conn(struct server_thread *t, struct conn *c, int error)
{
    if (error && error != ECONNRESET && error != EPIPE) {
        if (t->errors++ < 5)
            fprintf(stderr, "c-epoll: connection error: %s\n", strerror(error));
    }
    close(c->fd);
    free(c->pend);
    free(c);
}

static int set_events(struct server_thread *t, struct conn *c, uint32_t events)
{
    struct epoll_event ev = { .events = events, .data.ptr = c };
    return epoll_ctl(t->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void accept_all(struct server_thread *t)
{
    for (;;) {
        int fd = accept4(t->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED)
                return;
            fprintf(stderr, "c-epoll: accept4: %s\n", strerror(errno));
            return;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct conn *c = calloc(1, sizeof *c);
        if (!c) {
            fprintf(stderr, "c-epoll: out of memory, dropping a connection\n");
            close(fd);
            continue;
        }
        c->fd = fd;
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
        if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
            fprintf(stderr, "c-epoll: epoll_ctl(ADD): %s\n", strerror(errno));
            close(fd);
            free(c);
            continue;
        }
        t->accepted++;
    }
}

/* Keeps bytes the socket did not take and waits for EPOLLOUT. 0 on success, else errno. */
static int keep_pending(struct server_thread *t, struct conn *c, const uint8_t *data, size_t len)
{
    if (c->pend_cap < len) {
        uint8_t *p = realloc(c->pend, len);
        if (!p)
            return ENOMEM;
        c->pend = p;
        c->pend_cap = len;
    }
    memcpy(c->pend, data, len);
    c->pend_off = 0;
    c->pend_len = len;
    return set_events(t, c, EPOLLOUT) < 0 ? errno : 0;
}

static void on_readable(struct server_thread *t, struct conn *c)
{
    ssize_t n = recv(c->fd, t->buf, BUF_SIZE, 0);
    if (n == 0) {
        close_conn(t, c, 0);
        return;
    }
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            close_conn(t, c, errno);
        return;
    }
    spin();
    ssize_t k = send(c->fd, t->buf, (size_t)n, MSG_NOSIGNAL);
    if (k < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            close_conn(t, c, errno);
            return;
        }
        k = 0;
    }
    if (k < n) {
        int err = keep_pending(t, c, t->buf + k, (size_t)(n - k));
        if (err)
            close_conn(t, c, err);
    }
}

static void on_writable(struct server_thread *t, struct conn *c)
{
    ssize_t k = send(c->fd, c->pend + c->pend_off, c->pend_len - c->pend_off, MSG_NOSIGNAL);
    if (k < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            close_conn(t, c, errno);
        return;
    }
    c->pend_off += (size_t)k;
    if (c->pend_off == c->pend_len) {
        c->pend_len = 0;
        if (set_events(t, c, EPOLLIN) < 0)
            close_conn(t, c, errno);
    }
}

static void *thread_main(void *arg)
{
    struct server_thread *t = arg;
    struct epoll_event evs[MAX_EVENTS];
    for (;;) {
        int n = epoll_wait(t->epfd, evs, MAX_EVENTS, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "c-epoll: epoll_wait: %s\n", strerror(errno));
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            if (c == &stop_tag)
                return NULL;
            if (c == &listener_tag) {
                accept_all(t);
            } else if (c->pend_len) {
                if (evs[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
                    on_writable(t, c);
            } else {
                on_readable(t, c);
            }
        }
    }
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    raise_fd_limit();

    /* Signals are taken synchronously by main with sigwait; the threads inherit the mask. */
    sigset_t stop_signals;
    block_stop_signals(&stop_signals);

    stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd < 0)
        die("eventfd");

    struct server_thread *threads = calloc((size_t)nthreads, sizeof *threads);
    int *lfds = calloc((size_t)nthreads, sizeof *lfds);
    if (!threads || !lfds)
        die("calloc");
    open_listeners(lfds, nthreads, SOCK_NONBLOCK);
    for (int i = 0; i < nthreads; i++) {
        struct server_thread *t = &threads[i];
        t->lfd = lfds[i];
        t->buf = malloc(BUF_SIZE);
        t->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (!t->buf || t->epfd < 0)
            die("epoll_create1/malloc");
        struct epoll_event lev = { .events = EPOLLIN, .data.ptr = &listener_tag };
        struct epoll_event sev = { .events = EPOLLIN, .data.ptr = &stop_tag };
        if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, t->lfd, &lev) < 0 || epoll_ctl(t->epfd, EPOLL_CTL_ADD, stop_fd, &sev) < 0)
            die("epoll_ctl(ADD)");
    }
    free(lfds);

    int rc;

    for (int i = 0; i < nthreads; i++) {
        rc = pthread_create(&threads[i].tid, NULL, thread_main, &threads[i]);
        if (rc != 0) {
            fprintf(stderr, "c-epoll: pthread_create: %s\n", strerror(rc));
            return 1;
        }
    }
    printf("listening on %s:%d server=c-epoll threads=%d\n", host, port, nthreads);
    fflush(stdout);

    int sig;
    if (sigwait(&stop_signals, &sig) != 0)
        die("sigwait");
    uint64_t one = 1;
    if (write(stop_fd, &one, sizeof one) != (ssize_t)sizeof one)
        die("write(eventfd)");
    unsigned long accepted = 0, errors = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(threads[i].tid, NULL);
        close(threads[i].lfd);
        close(threads[i].epfd);
        accepted += threads[i].accepted;
        errors += threads[i].errors;
    }
    fprintf(stderr, "c-epoll: stopped by signal %d; accepted %lu connections, %lu ended with errors other than reset\n",
            sig, accepted, errors);
    return 0;
}
