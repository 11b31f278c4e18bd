/*
 * loadgen - echo load generator for the proactor benchmark matrix.
 *
 * Opens N TCP sessions to an echo server and keeps a stream of fixed-size blocks
 * flowing on each of them, verifying every echoed byte.
 *
 *   window = 0   ping-pong: send one block, wait until all of it came back, repeat.
 *   window = W   keep up to W bytes in flight per session: start a new block (one
 *                write per block) while inflight + block <= W. --coalesce writes all
 *                the whole blocks that fit with one write instead (less client CPU,
 *                larger reads on the server: a different workload, say so).
 *
 * Every completed block's latency (from the start of its write to the arrival of its
 * last echoed byte) goes into a log-linear histogram (HdrHistogram-style buckets, about
 * 0.8 % relative precision); in ping-pong mode that is every round trip.
 *
 * Phases: connect all sessions (at most --connect-batch connects in progress), wait
 * until every session had its first block echoed, warm up, then measure. The result is
 * one machine-readable line on stdout:
 *
 *   RESULT bytes_per_s=... msgs_per_s=... p50_us=... p99_us=... p999_us=... ... cpu_pct=...
 *          ... session_msgs_min=... session_msgs_median=... session_msgs_max=...
 *          session_msgs_max_over_min=... idle_sessions=...
 *
 * cpu_pct is this process's own CPU use (user + system, getrusage) during the
 * measurement, in percent of one core: near 100 the client, not the server, is the limit.
 * With --server-pid, server_cpu_pct is the server process's CPU use over the same interval
 * (from /proc/PID/stat, 10 ms tick resolution; -1 when unreadable), server_user_cpu_pct the
 * part of it spent in user mode (the server's own code: what a change to a Java path moves, without
 * the kernel's TCP work that dominates the total), and other_user_cpu_pct
 * the user time of every other process on the machine (from /proc/stat): well above 0 it
 * says something else competed for the CPUs during the measurement.
 *
 * Fairness: every session counts the blocks it completed; the counts over the measured
 * interval give session_msgs_min / _median / _max and their ratio max/min
 * (session_msgs_max_over_min, "inf" when some session completed nothing; idle_sessions
 * says how many). A fair server serves every session about equally: ratio near 1.
 * --self-test checks these statistics and exits.
 * Progress and errors go to stderr; the exit code is 0 only for a clean measurement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ config */

struct config {
    const char *host;
    int port;
    int sessions;
    int block;
    int window;        /* 0 = ping-pong */
    int seconds;
    int warmup;
    int threads;
    int ready_timeout; /* seconds for connecting + first echoes */
    int connect_batch; /* connects in progress at once, all threads together */
    int server_pid;    /* > 0: also report that process's CPU use */
    int coalesce;      /* 1: one send for all the blocks the window allows */
};

static struct config cfg = {
    .host = "127.0.0.1", .port = 0, .sessions = 1, .block = 512, .window = 0,
    .seconds = 10, .warmup = 5, .threads = 1, .ready_timeout = 60, .connect_batch = 256,
    .server_pid = 0,
    .coalesce = 0,
};

/* ------------------------------------------------------------- histogram */

#define H_SUB_BITS 8
#define H_LINEAR (1u << H_SUB_BITS)
#define H_HALF (1u << (H_SUB_BITS - 1))
#define H_BUCKETS (H_LINEAR + (64 - H_SUB_BITS) * H_HALF)

struct histogram {
    uint64_t count;
    uint64_t max;
    double sum;
    uint64_t buckets[H_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
    if (v < H_LINEAR)
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - (H_SUB_BITS - 1);
    return H_LINEAR + (shift - 1) * H_HALF + (unsigned)((v >> shift) - H_HALF);
}

/* Highest value that falls into bucket idx (what HdrHistogram reports). */
static uint64_t hist_bucket_high(unsigned idx)
{
    if (idx < H_LINEAR)
        return idx;
    unsigned k = idx - H_LINEAR;
    unsigned shift = k / H_HALF + 1;
    uint64_t mantissa = k % H_HALF + H_HALF;
    return ((mantissa + 1) << shift) - 1;
}

static inline void hist_record(struct histogram *h, uint64_t v)
{
    h->buckets[hist_index(v)]++;
    h->count++;
    h->sum += (double)v;
    if (v > h->max)
        h->max = v;
}

static void hist_merge(struct histogram *into, const struct histogram *from)
{
    for (unsigned i = 0; i < H_BUCKETS; i++)
        into->buckets[i] += from->buckets[i];
    into->count += from->count;
    into->sum += from->sum;
    if (from->max > into->max)
        into->max = from->max;
}

static uint64_t hist_percentile(const struct histogram *h, double pct)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = (uint64_t)((pct / 100.0) * (double)h->count + 0.999999);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < H_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank) {
            uint64_t high = hist_bucket_high(i);
            return high < h->max ? high : h->max;
        }
    }
    return h->max;
}

/* -------------------------------------------------------- shared state */

enum { PH_RUN = 0, PH_MEASURE = 1, PH_DONE = 2 };
static _Atomic int phase = PH_RUN;
static _Atomic int failed = 0;
static char failure[512];

static void fail(const char *fmt, ...)
{
    if (atomic_exchange(&failed, 1) != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
}

#define PATTERN_PERIOD 251u /* prime: block sizes never line up with it */
#define RBUF_SIZE (256 * 1024)
static uint8_t *pattern;

static struct sockaddr_storage server_addr;
static socklen_t server_addr_len;

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Single writer (the owning worker), read by the main thread. */
static inline void add_relaxed(_Atomic uint64_t *c, uint64_t n)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

/* ------------------------------------------------------------- sessions */

enum { S_IDLE = 0, S_CONNECTING, S_ACTIVE };

struct session {
    int fd;
    uint32_t id;
    uint8_t state;
    uint8_t out_armed; /* EPOLLOUT registered */
    uint8_t echoed;    /* first block came back */
    uint64_t sent;     /* bytes written */
    uint64_t recvd;    /* bytes echoed back */
    _Atomic uint64_t done; /* blocks completed (single writer, read by the main thread) */
    uint64_t *stamps;  /* ring: start time of block i at stamps[i % ring] */
};

struct worker {
    int index;
    pthread_t tid;
    int epfd;
    struct session *sessions;
    int nsessions;
    int next_connect;
    int connecting;
    int batch;
    uint8_t *rbuf;
    struct histogram *hist;
    _Atomic uint64_t bytes;
    _Atomic uint64_t msgs;
    _Atomic int connected;
    _Atomic int echoed;
};

static uint64_t ring_size;      /* blocks that can be in flight per session */
static uint64_t window_bytes;   /* effective window (block for ping-pong) */

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

static void *worker_main(void *arg)
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

/* ------------------------------------------------------------ fairness */

/* Blocks completed per session over the measurement: how evenly the server served them. */
struct fairness {
    uint64_t min;
    double median;       /* mean of the two middle counts for an even number of sessions */
    uint64_t max;
    double max_over_min; /* INFINITY when min is 0 */
    int idle;            /* sessions that completed nothing */
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts counts[0..n) in place; n >= 1. */
static struct fairness fairness_of(uint64_t *counts, int n)
{
    struct fairness f = { 0 };
    qsort(counts, (size_t)n, sizeof *counts, cmp_u64);
    f.min = counts[0];
    f.max = counts[n - 1];
    f.median = n % 2 ? (double)counts[n / 2] : ((double)counts[n / 2 - 1] + (double)counts[n / 2]) / 2.0;
    f.max_over_min = f.min == 0 ? INFINITY : (double)f.max / (double)f.min;
    for (int i = 0; i < n && counts[i] == 0; i++)
        f.idle++;
    return f;
}

/* The RESULT fields of a fairness summary (no leading or trailing blank). */
static void fairness_fields(char *buf, size_t len, const struct fairness *f)
{
    char ratio[32];
    if (isinf(f->max_over_min))
        snprintf(ratio, sizeof ratio, "inf");
    else
        snprintf(ratio, sizeof ratio, "%.3f", f->max_over_min);
    snprintf(buf, len,
             "session_msgs_min=%llu session_msgs_median=%.1f session_msgs_max=%llu session_msgs_max_over_min=%s "
             "idle_sessions=%d",
             (unsigned long long)f->min, f->median, (unsigned long long)f->max, ratio, f->idle);
}

/*
 * --self-test: the fairness statistics on fixed counts. Prints one line per case,
 * "FAIRNESS counts=a,b,... <fields>", and exits 0 when every case gave the expected fields.
 */
static int self_test(void)
{
    static const struct {
        int n;
        uint64_t counts[6];
        const char *expect;
    } cases[] = {
        { 1, { 7 }, "session_msgs_min=7 session_msgs_median=7.0 session_msgs_max=7 "
                    "session_msgs_max_over_min=1.000 idle_sessions=0" },
        { 3, { 30, 10, 20 }, "session_msgs_min=10 session_msgs_median=20.0 session_msgs_max=30 "
                             "session_msgs_max_over_min=3.000 idle_sessions=0" },
        { 4, { 10, 20, 10, 31 }, "session_msgs_min=10 session_msgs_median=15.0 session_msgs_max=31 "
                                 "session_msgs_max_over_min=3.100 idle_sessions=0" },
        { 5, { 4, 0, 2, 6, 0 }, "session_msgs_min=0 session_msgs_median=2.0 session_msgs_max=6 "
                                "session_msgs_max_over_min=inf idle_sessions=2" },
        { 2, { 0, 0 }, "session_msgs_min=0 session_msgs_median=0.0 session_msgs_max=0 "
                       "session_msgs_max_over_min=inf idle_sessions=2" },
    };
    int bad = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t counts[6];
        char list[128] = "", fields[256];
        size_t used = 0;
        for (int i = 0; i < cases[c].n; i++) {
            counts[i] = cases[c].counts[i];
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%llu", i ? "," : "",
                                     (unsigned long long)counts[i]);
        }
        struct fairness f = fairness_of(counts, cases[c].n);
        fairness_fields(fields, sizeof fields, &f);
        printf("FAIRNESS counts=%s %s\n", list, fields);
        if (strcmp(fields, cases[c].expect) != 0) {
            fprintf(stderr, "loadgen: self-test FAILED for counts %s:\n  got      %s\n  expected %s\n", list, fields,
                    cases[c].expect);
            bad = 1;
        }
    }
    fprintf(stderr, "loadgen: self-test %s\n", bad ? "FAILED" : "ok");
    return bad;
}

/* ------------------------------------------------------------ main */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: loadgen --port P [--host 127.0.0.1] [--sessions 1] [--block 512] [--window 0]\n"
            "               [--seconds 10] [--warmup 5] [--threads 1] [--ready-timeout 60]\n"
            "               [--connect-batch 256] [--server-pid PID] [--coalesce]\n"
            "       loadgen --self-test\n"
            "  --window 0 = ping-pong (one block, wait for its echo); W = bytes in flight per session (>= block)\n"
            "  --server-pid PID adds server_cpu_pct, server_user_cpu_pct and other_user_cpu_pct to the RESULT line\n"
            "  --coalesce sends every whole block the window allows in one write (default: one write per block)\n"
            "  --self-test checks the per-session fairness statistics and exits\n");
}

static int parse_int(const char *name, const char *v, int min)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < min || n > 1000000000L) {
        fprintf(stderr, "loadgen: --%s needs an integer >= %d, got '%s'\n", name, min, v);
        exit(64);
    }
    return (int)n;
}

static void parse_args(int argc, char **argv)
{
    static const struct option opts[] = {
        { "host", required_argument, 0, 'h' },        { "port", required_argument, 0, 'p' },
        { "sessions", required_argument, 0, 's' },    { "block", required_argument, 0, 'b' },
        { "window", required_argument, 0, 'w' },      { "seconds", required_argument, 0, 'S' },
        { "warmup", required_argument, 0, 'W' },      { "threads", required_argument, 0, 't' },
        { "ready-timeout", required_argument, 0, 'r' }, { "connect-batch", required_argument, 0, 'c' },
        { "server-pid", required_argument, 0, 'P' }, { "coalesce", no_argument, 0, 'C' },
        { "self-test", no_argument, 0, 'T' }, { "help", no_argument, 0, 'H' },
        { 0, 0, 0, 0 },
    };
    int c;
    int have_port = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'h': cfg.host = optarg; break;
        case 'p': cfg.port = parse_int("port", optarg, 1); have_port = 1; break;
        case 's': cfg.sessions = parse_int("sessions", optarg, 1); break;
        case 'b': cfg.block = parse_int("block", optarg, 1); break;
        case 'w': cfg.window = parse_int("window", optarg, 0); break;
        case 'S': cfg.seconds = parse_int("seconds", optarg, 1); break;
        case 'W': cfg.warmup = parse_int("warmup", optarg, 0); break;
        case 't': cfg.threads = parse_int("threads", optarg, 1); break;
        case 'r': cfg.ready_timeout = parse_int("ready-timeout", optarg, 1); break;
        case 'c': cfg.connect_batch = parse_int("connect-batch", optarg, 1); break;
        case 'P': cfg.server_pid = parse_int("server-pid", optarg, 1); break;
        case 'C': cfg.coalesce = 1; break;
        case 'T': exit(self_test());
        case 'H': usage(stdout); exit(0);
        default: usage(stderr); exit(64);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "loadgen: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        exit(64);
    }
    if (!have_port || cfg.port > 65535) {
        fprintf(stderr, "loadgen: --port 1..65535 is required\n");
        usage(stderr);
        exit(64);
    }
    if (cfg.window != 0 && cfg.window < cfg.block) {
        fprintf(stderr, "loadgen: --window %d is smaller than --block %d (use 0 for ping-pong)\n", cfg.window, cfg.block);
        exit(64);
    }
    if (cfg.threads > cfg.sessions)
        cfg.threads = cfg.sessions;
}

static void resolve(void)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *res;
    char port[16];
    snprintf(port, sizeof port, "%d", cfg.port);
    int rc = getaddrinfo(cfg.host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "loadgen: cannot resolve %s: %s\n", cfg.host, gai_strerror(rc));
        exit(1);
    }
    memcpy(&server_addr, res->ai_addr, res->ai_addrlen);
    server_addr_len = res->ai_addrlen;
    freeaddrinfo(res);
}

static void raise_fd_limit(int needed)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
        perror("loadgen: getrlimit(RLIMIT_NOFILE)");
        exit(1);
    }
    if (rl.rlim_cur >= (rlim_t)needed)
        return;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)needed) {
        fprintf(stderr, "loadgen: %d sessions need %d file descriptors, the hard limit is %llu (raise ulimit -Hn)\n",
                cfg.sessions, needed, (unsigned long long)rl.rlim_max);
        exit(1);
    }
    rl.rlim_cur = (rlim_t)needed;
    if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
        perror("loadgen: setrlimit(RLIMIT_NOFILE)");
        exit(1);
    }
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "loadgen: out of memory (%zu x %zu bytes)\n", n, size);
        exit(1);
    }
    return p;
}

/*
 * CPU time in seconds at one instant: this process (getrusage), the server process
 * (/proc/PID/stat, -1 when unknown) and the user time of the whole machine (/proc/stat,
 * -1 when unreadable). User time of other processes = machine - client - server user time;
 * it shows when something else on the machine disturbed the measurement.
 */
struct cpu_sample {
    double client_user;
    double client_total;
    double server_user;
    double server_total;
    double machine_user;
};

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void sample_server(int pid, struct cpu_sample *out)
{
    out->server_user = out->server_total = -1;
    if (pid <= 0)
        return;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* Fields after the command name "(...)": state is field 3, utime 14, stime 15. */
    char *p = strrchr(buf, ')');
    unsigned long utime, stime;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return;
    double tick = (double)sysconf(_SC_CLK_TCK);
    out->server_user = (double)utime / tick;
    out->server_total = (double)(utime + stime) / tick;
}

static void sample_machine(struct cpu_sample *out)
{
    out->machine_user = -1;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    unsigned long long user, nice;
    if (fscanf(f, "cpu %llu %llu", &user, &nice) == 2)
        out->machine_user = (double)(user + nice) / (double)sysconf(_SC_CLK_TCK);
    fclose(f);
}

static struct cpu_sample sample_cpu(void)
{
    struct cpu_sample s;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s.client_user = tv_seconds(ru.ru_utime);
    s.client_total = s.client_user + tv_seconds(ru.ru_stime);
    sample_server(cfg.server_pid, &s);
    sample_machine(&s);
    return s;
}

static struct worker *workers;

static int sum_connected(void)
{
    int n = 0;
    for (int i = 0; i < cfg.threads; i++)
        n += atomic_load_explicit(&workers[i].connected, memory_order_relaxed);
    return n;
}

static int sum_echoed(void)
{
    int n = 0;
    for (int i = 0; i < cfg.threads; i++)
        n += atomic_load_explicit(&workers[i].echoed, memory_order_relaxed);
    return n;
}

/* Blocks completed so far by every session. */
static void snapshot_sessions(const struct session *sessions, uint64_t *out)
{
    for (int i = 0; i < cfg.sessions; i++)
        out[i] = atomic_load_explicit(&sessions[i].done, memory_order_relaxed);
}

static void sum_counters(uint64_t *bytes, uint64_t *msgs)
{
    *bytes = 0;
    *msgs = 0;
    for (int i = 0; i < cfg.threads; i++) {
        *bytes += atomic_load_explicit(&workers[i].bytes, memory_order_relaxed);
        *msgs += atomic_load_explicit(&workers[i].msgs, memory_order_relaxed);
    }
}

/* Sleeps in 10 ms steps until cond() reaches target, failure, or the deadline. 0 = reached. */
static int wait_for(int (*cond)(void), int target, uint64_t deadline_ns)
{
    const struct timespec step = { 0, 10 * 1000 * 1000 };
    while (!atomic_load(&failed)) {
        if (cond && cond() >= target)
            return 0;
        if (now_ns() >= deadline_ns)
            return cond ? -1 : 0;
        nanosleep(&step, NULL);
    }
    return -1;
}

static void stop_and_exit(int code)
{
    atomic_store(&phase, PH_DONE);
    for (int i = 0; i < cfg.threads; i++)
        pthread_join(workers[i].tid, NULL);
    if (atomic_load(&failed))
        fprintf(stderr, "loadgen: error: %s\n", failure);
    exit(code);
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    resolve();
    raise_fd_limit(cfg.sessions + 64);

    window_bytes = (uint64_t)(cfg.window ? cfg.window : cfg.block);
    ring_size = window_bytes / (uint64_t)cfg.block + 1;
    size_t pattern_len = PATTERN_PERIOD + (size_t)(window_bytes > RBUF_SIZE ? window_bytes : RBUF_SIZE);
    pattern = xcalloc(pattern_len, 1);
    for (size_t i = 0; i < pattern_len; i++)
        pattern[i] = (uint8_t)(i % PATTERN_PERIOD);

    struct session *sessions = xcalloc((size_t)cfg.sessions, sizeof *sessions);
    uint64_t *stamps = xcalloc((size_t)cfg.sessions * ring_size, sizeof *stamps);
    for (int i = 0; i < cfg.sessions; i++) {
        sessions[i].fd = -1;
        sessions[i].id = (uint32_t)i;
        sessions[i].stamps = stamps + (size_t)i * ring_size;
    }

    workers = xcalloc((size_t)cfg.threads, sizeof *workers);
    int per = cfg.sessions / cfg.threads, extra = cfg.sessions % cfg.threads, first = 0;
    int batch = cfg.connect_batch / cfg.threads;
    for (int i = 0; i < cfg.threads; i++) {
        struct worker *w = &workers[i];
        w->index = i;
        w->sessions = sessions + first;
        w->nsessions = per + (i < extra ? 1 : 0);
        first += w->nsessions;
        w->batch = batch > 0 ? batch : 1;
        w->rbuf = xcalloc(RBUF_SIZE, 1);
        w->hist = xcalloc(1, sizeof *w->hist);
        w->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (w->epfd < 0) {
            perror("loadgen: epoll_create1");
            return 1;
        }
    }

    uint64_t t0 = now_ns();
    for (int i = 0; i < cfg.threads; i++) {
        int rc = pthread_create(&workers[i].tid, NULL, worker_main, &workers[i]);
        if (rc != 0) {
            fprintf(stderr, "loadgen: pthread_create: %s\n", strerror(rc));
            return 1;
        }
    }

    uint64_t deadline = t0 + (uint64_t)cfg.ready_timeout * 1000000000ull;
    if (wait_for(sum_connected, cfg.sessions, deadline) < 0) {
        if (!atomic_load(&failed))
            fail("only %d of %d sessions connected within %d s", sum_connected(), cfg.sessions, cfg.ready_timeout);
        stop_and_exit(1);
    }
    fprintf(stderr, "loadgen: %d sessions connected in %.2f s\n", cfg.sessions, (double)(now_ns() - t0) / 1e9);
    if (wait_for(sum_echoed, cfg.sessions, deadline) < 0) {
        if (!atomic_load(&failed))
            fail("only %d of %d sessions had their first echo within %d s", sum_echoed(), cfg.sessions,
                 cfg.ready_timeout);
        stop_and_exit(1);
    }
    fprintf(stderr, "loadgen: every session echoed after %.2f s; warming up %d s, measuring %d s\n",
            (double)(now_ns() - t0) / 1e9, cfg.warmup, cfg.seconds);
    if (wait_for(NULL, 0, now_ns() + (uint64_t)cfg.warmup * 1000000000ull) < 0)
        stop_and_exit(1);

    uint64_t b0, m0, b1, m1;
    uint64_t *done0 = xcalloc((size_t)cfg.sessions, sizeof *done0);
    uint64_t *done1 = xcalloc((size_t)cfg.sessions, sizeof *done1);
    atomic_store(&phase, PH_MEASURE);
    uint64_t start = now_ns();
    struct cpu_sample cpu0 = sample_cpu();
    sum_counters(&b0, &m0);
    snapshot_sessions(sessions, done0);
    if (wait_for(NULL, 0, start + (uint64_t)cfg.seconds * 1000000000ull) < 0)
        stop_and_exit(1);
    sum_counters(&b1, &m1);
    snapshot_sessions(sessions, done1);
    uint64_t end = now_ns();
    struct cpu_sample cpu1 = sample_cpu();
    atomic_store(&phase, PH_DONE);
    for (int i = 0; i < cfg.threads; i++)
        pthread_join(workers[i].tid, NULL);
    if (atomic_load(&failed)) {
        fprintf(stderr, "loadgen: error: %s\n", failure);
        return 1;
    }

    struct histogram *all = xcalloc(1, sizeof *all);
    for (int i = 0; i < cfg.threads; i++)
        hist_merge(all, workers[i].hist);
    double secs = (double)(end - start) / 1e9;
    int server_known = cpu0.server_total >= 0 && cpu1.server_total >= 0;
    double server_pct = server_known ? 100.0 * (cpu1.server_total - cpu0.server_total) / secs : -1.0;
    double server_user_pct = server_known ? 100.0 * (cpu1.server_user - cpu0.server_user) / secs : -1.0;
    double other_pct = -1.0;
    if (server_known && cpu0.machine_user >= 0 && cpu1.machine_user >= 0) {
        double other = (cpu1.machine_user - cpu0.machine_user) - (cpu1.client_user - cpu0.client_user) -
                       (cpu1.server_user - cpu0.server_user);
        other_pct = other > 0 ? 100.0 * other / secs : 0.0;
    }
    if (all->count == 0)
        fprintf(stderr, "loadgen: warning: no block completed during the measurement\n");
    for (int i = 0; i < cfg.sessions; i++)
        done1[i] -= done0[i];
    struct fairness fair = fairness_of(done1, cfg.sessions);
    char fair_text[256];
    fairness_fields(fair_text, sizeof fair_text, &fair);
    if (fair.idle > 0)
        fprintf(stderr, "loadgen: warning: %d of %d sessions completed no block during the measurement\n", fair.idle,
                cfg.sessions);
    printf("RESULT bytes_per_s=%.0f msgs_per_s=%.0f p50_us=%.2f p90_us=%.2f p99_us=%.2f p999_us=%.2f "
           "max_us=%.2f mean_us=%.2f samples=%llu sessions=%d block=%d window=%d threads=%d seconds=%.3f "
           "coalesce=%d cpu_pct=%.1f server_cpu_pct=%.1f server_user_cpu_pct=%.1f other_user_cpu_pct=%.1f %s\n",
           (double)(b1 - b0) / secs, (double)(m1 - m0) / secs, hist_percentile(all, 50) / 1e3,
           hist_percentile(all, 90) / 1e3, hist_percentile(all, 99) / 1e3, hist_percentile(all, 99.9) / 1e3,
           all->max / 1e3, all->count ? all->sum / (double)all->count / 1e3 : 0.0, (unsigned long long)all->count,
           cfg.sessions, cfg.block, cfg.window, cfg.threads, secs, cfg.coalesce,
           100.0 * (cpu1.client_total - cpu0.client_total) / secs, server_pct, server_user_pct, other_pct, fair_text);
    fflush(stdout);

    /* Reset instead of FIN: no TIME_WAIT pile-up across thousands of sessions and runs. */
    struct linger lg = { .l_onoff = 1, .l_linger = 0 };
    for (int i = 0; i < cfg.sessions; i++) {
        if (sessions[i].fd >= 0) {
            setsockopt(sessions[i].fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
            close(sessions[i].fd);
        }
    }
    return 0;
}
