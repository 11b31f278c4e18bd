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
 *          session_msgs_max_over_min=... idle_sessions=... offered_msgs_per_s=...
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
 * --reconnect closes each session's connection after every echoed block and sends the next block on a new one
 * (ping-pong only): msgs_per_s is then connections per second, each accepted, read, echoed and closed by the server.
 * --rate R paces the sessions to R blocks per second in total (pacing.h); offered_msgs_per_s is R, 0 unpaced.
 * --self-test checks these statistics and the pacing arithmetic, and exits.
 * Progress and errors go to stderr; the exit code is 0 only for a clean measurement.
 */
#define _GNU_SOURCE
#include "cpu_sample.h"
#include "fairness.h"
#include "histogram.h"
#include "loadgen.h"
#include "sessions.h"

#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

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

    uint64_t ring_size = set_stream((uint64_t)(cfg.window ? cfg.window : cfg.block));

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
    if (cfg.rate > 0)
        set_pacing(sessions, cfg.sessions, t0);
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
    struct cpu_sample cpu0 = sample_cpu(cfg.server_pid);
    sum_counters(&b0, &m0);
    snapshot_sessions(sessions, done0);
    if (wait_for(NULL, 0, start + (uint64_t)cfg.seconds * 1000000000ull) < 0)
        stop_and_exit(1);
    sum_counters(&b1, &m1);
    snapshot_sessions(sessions, done1);
    uint64_t end = now_ns();
    struct cpu_sample cpu1 = sample_cpu(cfg.server_pid);
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
           "coalesce=%d cpu_pct=%.1f server_cpu_pct=%.1f server_user_cpu_pct=%.1f other_user_cpu_pct=%.1f %s "
           "offered_msgs_per_s=%d reconnect=%d\n",
           (double)(b1 - b0) / secs, (double)(m1 - m0) / secs, hist_percentile(all, 50) / 1e3,
           hist_percentile(all, 90) / 1e3, hist_percentile(all, 99) / 1e3, hist_percentile(all, 99.9) / 1e3,
           all->max / 1e3, all->count ? all->sum / (double)all->count / 1e3 : 0.0, (unsigned long long)all->count,
           cfg.sessions, cfg.block, cfg.window, cfg.threads, secs, cfg.coalesce,
           100.0 * (cpu1.client_total - cpu0.client_total) / secs, server_pct, server_user_pct, other_pct, fair_text,
           cfg.rate, cfg.reconnect);
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
