/*
 * What every part of the load generator shares: the configuration (parsed once by parse_args, read-only after),
 * the run's phase, the first failure, and the clock.
 */
#ifndef LOADGEN_H
#define LOADGEN_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

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
    int rate;          /* > 0: blocks per second offered in total, paced (see pacing.h); 0 = unpaced */
    int reconnect;     /* 1: every block on a new connection (ping-pong only): connect, send, echo, close */
};

extern struct config cfg;

/* Parses the command line into cfg; prints usage and exits on an error, runs --self-test and --help itself. */
void parse_args(int argc, char **argv);

/* The workers measure only in PH_MEASURE and stop in PH_DONE (set by the main thread). */
enum { PH_RUN = 0, PH_MEASURE = 1, PH_DONE = 2 };
extern _Atomic int phase;

/* Set by the first fail(); every thread stops when it sees it. */
extern _Atomic int failed;
/* The first failure's message (written once, by the thread that set failed). */
extern char failure[512];

/* Records the first failure (later ones are dropped) and makes every thread stop. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
