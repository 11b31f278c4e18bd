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
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define BUF_SIZE (64 * 1024)
#define BACKLOG 4096
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

static const char *host = "127.0.0.1";
static int port = -1;
static int nthreads = 1;
static int delay_us = 0;
static int stop_fd = -1;

/* Distinct addresses that tag the listener and the stop eventfd in epoll data. */
static struct conn listener_tag, stop_tag;

static void die(const char *what)
{
    fprintf(stderr, "c-epoll: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void spin(void)
{
    if (delay_us <= 0)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t deadline = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + (uint64_t)delay_us * 1000ull;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec >= deadline)
            return;
        cpu_relax();
    }
}

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

static int open_listener(const struct sockaddr *addr, socklen_t len)
{
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0)
        die("setsockopt(SO_REUSEADDR/SO_REUSEPORT)");
    if (bind(fd, addr, len) < 0) {
        fprintf(stderr, "c-epoll: cannot bind %s:%d: %s\n", host, port, strerror(errno));
        exit(1);
    }
    if (listen(fd, BACKLOG) < 0)
        die("listen");
    return fd;
}

static int parse_int(const char *name, const char *v, int min, int max)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < min || n > max) {
        fprintf(stderr, "c-epoll: --%s needs an integer in %d..%d, got '%s'\n", name, min, max, v);
        exit(64);
    }
    return (int)n;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: epoll_echo --port P [--host 127.0.0.1] [--threads T] [--delay-us D]\n");
}

static void parse_args(int argc, char **argv)
{
    static const struct option opts[] = {
        { "host", required_argument, 0, 'h' },   { "port", required_argument, 0, 'p' },
        { "threads", required_argument, 0, 't' }, { "delay-us", required_argument, 0, 'd' },
        { "help", no_argument, 0, 'H' },          { 0, 0, 0, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'h': host = optarg; break;
        case 'p': port = parse_int("port", optarg, 0, 65535); break;
        case 't': nthreads = parse_int("threads", optarg, 1, 1024); break;
        case 'd': delay_us = parse_int("delay-us", optarg, 0, 10000000); break;
        case 'H': usage(stdout); exit(0);
        default: usage(stderr); exit(64);
        }
    }
    if (optind < argc || port < 0) {
        fprintf(stderr, "c-epoll: %s\n", optind < argc ? "unexpected argument" : "--port is required");
        usage(stderr);
        exit(64);
    }
}

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
            fprintf(stderr, "c-epoll: warning: cannot raise the fd limit: %s\n", strerror(errno));
    }
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    raise_fd_limit();

    /* Signals are taken synchronously by main with sigwait; the threads inherit the mask. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
    struct addrinfo *ai;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &ai);
    if (rc != 0) {
        fprintf(stderr, "c-epoll: cannot resolve %s: %s\n", host, gai_strerror(rc));
        return 1;
    }

    stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd < 0)
        die("eventfd");

    struct server_thread *threads = calloc((size_t)nthreads, sizeof *threads);
    if (!threads)
        die("calloc");
    for (int i = 0; i < nthreads; i++) {
        struct server_thread *t = &threads[i];
        t->lfd = open_listener(ai->ai_addr, ai->ai_addrlen);
        if (i == 0 && port == 0) {
            /* The other listeners must share the port the kernel picked. */
            struct sockaddr_storage bound;
            socklen_t blen = sizeof bound;
            if (getsockname(t->lfd, (struct sockaddr *)&bound, &blen) < 0)
                die("getsockname");
            port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                     : ((struct sockaddr_in *)&bound)->sin_port);
            if (ai->ai_family == AF_INET6)
                ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons((uint16_t)port);
            else
                ((struct sockaddr_in *)ai->ai_addr)->sin_port = htons((uint16_t)port);
        }
        t->buf = malloc(BUF_SIZE);
        t->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (!t->buf || t->epfd < 0)
            die("epoll_create1/malloc");
        struct epoll_event lev = { .events = EPOLLIN, .data.ptr = &listener_tag };
        struct epoll_event sev = { .events = EPOLLIN, .data.ptr = &stop_tag };
        if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, t->lfd, &lev) < 0 || epoll_ctl(t->epfd, EPOLL_CTL_ADD, stop_fd, &sev) < 0)
            die("epoll_ctl(ADD)");
    }
    freeaddrinfo(ai);

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
