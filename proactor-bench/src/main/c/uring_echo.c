/*
 * uring_echo - minimal C io_uring echo server, the practical limit of io_uring on this machine (the io_uring
 * counterpart of epoll_echo).
 *
 *   uring_echo --port P [--host 127.0.0.1] [--threads T] [--delay-us D]
 *
 * T threads, each with its own ring (made on that thread, so SINGLE_ISSUER and DEFER_TASKRUN hold where the
 * kernel has them) and its own SO_REUSEPORT listener on the same port. Completion style with batching: every
 * connection always has exactly one request in the ring, a RECV into its own buffer or the SEND of what that RECV
 * got (a partial send sends the rest); one ACCEPT is always pending. One io_uring_enter per loop turn submits
 * every request prepared since the last one and waits for at least one completion; then all completions are
 * reaped. No system call is made per message besides that enter. Raw system calls, no liburing, so the build
 * needs only gcc and the kernel headers.
 *
 * Prints "listening on H:P server=c-io_uring threads=T" when ready; SIGTERM/SIGINT stop it.
 */
#define _GNU_SOURCE
#define SERVER_NAME "c-io_uring"
#define PROGRAM "uring_echo"
#include <linux/io_uring.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "echo_server_common.h"

#define BUF_SIZE (16 * 1024)
#define SQ_ENTRIES 4096
#define CQ_ENTRIES 32768

/* What a request's user_data names: a connection (8-byte aligned) with the request kind in the low bits. */
enum kind { K_RECV = 0, K_SEND = 1, K_ACCEPT = 2, K_STOP = 3 };

struct conn {
    int fd;
    uint32_t len;  /* bytes the last RECV got */
    uint32_t sent; /* of those, sent so far */
    uint8_t buf[BUF_SIZE];
};

struct ring {
    int fd;
    unsigned sq_entries;
    unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
    unsigned local_tail;  /* SQEs written by us */
    unsigned unsubmitted; /* of those, not yet handed to io_uring_enter */
};

struct server_thread {
    pthread_t tid;
    int lfd;
    struct ring ring;
    const char *flags; /* setup flags the kernel took, for the start line */
    unsigned long accepted;
    unsigned long errors;
};

static int stop_fd = -1;
static pthread_barrier_t ready;
static _Atomic int setup_failed;

/* ------------------------------------------------------------------------------------------------ the ring */

static int ring_setup(struct ring *r, unsigned flags)
{
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = flags | IORING_SETUP_CQSIZE;
    p.cq_entries = CQ_ENTRIES;
    int fd = (int)syscall(__NR_io_uring_setup, SQ_ENTRIES, &p);
    if (fd < 0)
        return -errno;
    size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
        fprintf(stderr, "c-io_uring: the kernel lacks IORING_FEAT_SINGLE_MMAP\n");
        exit(1);
    }
    size_t len = sq_len > cq_len ? sq_len : cq_len;
    uint8_t *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
    struct io_uring_sqe *sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
                                     MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
    if (q == MAP_FAILED || sqes == MAP_FAILED)
        die("mmap(io_uring)");
    r->fd = fd;
    r->sq_entries = p.sq_entries;
    r->sq_head = (unsigned *)(q + p.sq_off.head);
    r->sq_tail = (unsigned *)(q + p.sq_off.tail);
    r->sq_mask = (unsigned *)(q + p.sq_off.ring_mask);
    r->sq_array = (unsigned *)(q + p.sq_off.array);
    r->cq_head = (unsigned *)(q + p.cq_off.head);
    r->cq_tail = (unsigned *)(q + p.cq_off.tail);
    r->cq_mask = (unsigned *)(q + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(q + p.cq_off.cqes);
    r->sqes = sqes;
    r->local_tail = *r->sq_tail;
    r->unsubmitted = 0;
    return 0;
}

/* io_uring_enter: submits what is unsubmitted, and with wait waits for one completion. */
static int ring_enter(struct ring *r, int wait)
{
    int n = (int)syscall(__NR_io_uring_enter, r->fd, r->unsubmitted, wait ? 1 : 0,
                         wait ? IORING_ENTER_GETEVENTS : 0, NULL, 0);
    if (n < 0)
        return -errno;
    r->unsubmitted -= (unsigned)n;
    return n;
}

/* A zeroed SQE to fill, submitting first when the queue is full. */
static struct io_uring_sqe *ring_sqe(struct ring *r)
{
    while (r->local_tail - atomic_load_explicit((_Atomic unsigned *)r->sq_head, memory_order_acquire)
           >= r->sq_entries) {
        int n = ring_enter(r, 0);
        if (n < 0 && n != -EINTR && n != -EAGAIN && n != -EBUSY) {
            errno = -n;
            die("io_uring_enter(submit)");
        }
    }
    unsigned idx = r->local_tail & *r->sq_mask;
    struct io_uring_sqe *sqe = &r->sqes[idx];
    memset(sqe, 0, sizeof *sqe);
    r->sq_array[idx] = idx;
    return sqe;
}

/* Publishes the SQE last returned by ring_sqe. */
static void ring_push(struct ring *r)
{
    r->local_tail++;
    r->unsubmitted++;
    atomic_store_explicit((_Atomic unsigned *)r->sq_tail, r->local_tail, memory_order_release);
}

static uint64_t tag(void *p, enum kind k)
{
    return (uint64_t)(uintptr_t)p | (uint64_t)k;
}

static void prep_recv(struct ring *r, struct conn *c)
{
    struct io_uring_sqe *sqe = ring_sqe(r);
    sqe->opcode = IORING_OP_RECV;
    sqe->fd = c->fd;
    sqe->addr = (uint64_t)(uintptr_t)c->buf;
    sqe->len = BUF_SIZE;
    sqe->user_data = tag(c, K_RECV);
    ring_push(r);
}

static void prep_send(struct ring *r, struct conn *c)
{
    struct io_uring_sqe *sqe = ring_sqe(r);
    sqe->opcode = IORING_OP_SEND;
    sqe->fd = c->fd;
    sqe->addr = (uint64_t)(uintptr_t)(c->buf + c->sent);
    sqe->len = c->len - c->sent;
    sqe->msg_flags = MSG_NOSIGNAL;
    sqe->user_data = tag(c, K_SEND);
    ring_push(r);
}

static void prep_accept(struct ring *r, int lfd)
{
    struct io_uring_sqe *sqe = ring_sqe(r);
    sqe->opcode = IORING_OP_ACCEPT;
    sqe->fd = lfd;
    sqe->accept_flags = SOCK_CLOEXEC;
    sqe->user_data = tag(NULL, K_ACCEPT);
    ring_push(r);
}

static void prep_stop(struct ring *r)
{
    struct io_uring_sqe *sqe = ring_sqe(r);
    sqe->opcode = IORING_OP_POLL_ADD;
    sqe->fd = stop_fd;
    sqe->poll32_events = POLLIN;
    sqe->user_data = tag(NULL, K_STOP);
    ring_push(r);
}

/* ------------------------------------------------------------------------------------------------ serving */

static void close_conn(struct server_thread *t, struct conn *c, int error)
{
    if (error && error != ECONNRESET && error != EPIPE) {
        if (t->errors++ < 5)
            fprintf(stderr, "c-io_uring: connection error: %s\n", strerror(error));
    }
    close(c->fd);
    free(c);
}

static void on_accept(struct server_thread *t, int res)
{
    prep_accept(&t->ring, t->lfd);
    if (res < 0) {
        if (res != -EINTR && res != -ECONNABORTED && res != -EAGAIN)
            fprintf(stderr, "c-io_uring: accept: %s\n", strerror(-res));
        return;
    }
    int one = 1;
    setsockopt(res, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct conn *c = aligned_alloc(8, sizeof *c);
    if (!c) {
        fprintf(stderr, "c-io_uring: out of memory, dropping a connection\n");
        close(res);
        return;
    }
    c->fd = res;
    c->len = c->sent = 0;
    t->accepted++;
    prep_recv(&t->ring, c);
}

static void on_recv(struct server_thread *t, struct conn *c, int res)
{
    if (res <= 0) {
        close_conn(t, c, res < 0 ? -res : 0);
        return;
    }
    c->len = (uint32_t)res;
    c->sent = 0;
    spin();
    prep_send(&t->ring, c);
}

static void on_send(struct server_thread *t, struct conn *c, int res)
{
    if (res < 0) {
        close_conn(t, c, -res);
        return;
    }
    c->sent += (uint32_t)res;
    if (c->sent < c->len)
        prep_send(&t->ring, c);
    else
        prep_recv(&t->ring, c);
}

/* Makes the ring on this thread, trying the setup flags that let one thread own it, then fewer. */
static void setup_ring(struct server_thread *t)
{
    static const struct {
        unsigned flags;
        const char *name;
    } tries[] = {
        { IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SUBMIT_ALL,
          "SINGLE_ISSUER|DEFER_TASKRUN" },
        { IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL, "COOP_TASKRUN" },
        { 0, "none" },
    };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        int rc = ring_setup(&t->ring, tries[i].flags);
        if (rc == 0) {
            t->flags = tries[i].name;
            return;
        }
        if (rc != -EINVAL) {
            errno = -rc;
            fprintf(stderr, "c-io_uring: io_uring_setup: %s\n", strerror(errno));
            setup_failed = 1;
            return;
        }
    }
    fprintf(stderr, "c-io_uring: io_uring_setup refused every flag set\n");
    setup_failed = 1;
}

static void *thread_main(void *arg)
{
    struct server_thread *t = arg;
    setup_ring(t);
    pthread_barrier_wait(&ready);
    if (setup_failed)
        return NULL;
    struct ring *r = &t->ring;
    prep_stop(r);
    prep_accept(r, t->lfd);
    for (;;) {
        int n = ring_enter(r, 1);
        if (n < 0 && n != -EINTR && n != -EAGAIN && n != -EBUSY) {
            errno = -n;
            die("io_uring_enter");
        }
        unsigned head = *r->cq_head;
        unsigned tail = atomic_load_explicit((_Atomic unsigned *)r->cq_tail, memory_order_acquire);
        for (; head != tail; head++) {
            struct io_uring_cqe *cqe = &r->cqes[head & *r->cq_mask];
            uint64_t ud = cqe->user_data;
            int res = cqe->res;
            struct conn *c = (struct conn *)(uintptr_t)(ud & ~(uint64_t)7);
            switch ((enum kind)(ud & 7)) {
            case K_RECV: on_recv(t, c, res); break;
            case K_SEND: on_send(t, c, res); break;
            case K_ACCEPT: on_accept(t, res); break;
            case K_STOP: atomic_store_explicit((_Atomic unsigned *)r->cq_head, head + 1, memory_order_release);
                return NULL;
            }
        }
        atomic_store_explicit((_Atomic unsigned *)r->cq_head, head, memory_order_release);
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
    open_listeners(lfds, nthreads, 0);
    for (int i = 0; i < nthreads; i++)
        threads[i].lfd = lfds[i];
    free(lfds);

    int rc;

    pthread_barrier_init(&ready, NULL, (unsigned)nthreads + 1);
    for (int i = 0; i < nthreads; i++) {
        rc = pthread_create(&threads[i].tid, NULL, thread_main, &threads[i]);
        if (rc != 0) {
            fprintf(stderr, "c-io_uring: pthread_create: %s\n", strerror(rc));
            return 1;
        }
    }
    pthread_barrier_wait(&ready);
    if (setup_failed)
        return 1;
    printf("listening on %s:%d server=c-io_uring threads=%d setup=%s\n", host, port, nthreads, threads[0].flags);
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
        close(threads[i].ring.fd);
        accepted += threads[i].accepted;
        errors += threads[i].errors;
    }
    fprintf(stderr, "c-io_uring: stopped by signal %d; accepted %lu connections, %lu ended with errors other than reset\n",
            sig, accepted, errors);
    return 0;
}
