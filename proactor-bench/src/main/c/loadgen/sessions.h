/*
 * The client sessions and the worker threads that drive them: each worker owns an epoll instance and a share of
 * the sessions, connects them, keeps the window full, verifies every echoed byte and records each block's latency.
 * The main thread sets the stream's shape (set_stream) and the target (server_addr) before starting the workers,
 * and reads the workers' counters (relaxed atomics, single writer) while they run.
 */
#ifndef LOADGEN_SESSIONS_H
#define LOADGEN_SESSIONS_H

#include "histogram.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>

/* Bytes of the receive buffer of each worker. */
#define RBUF_SIZE (256 * 1024)

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
    uint64_t due;      /* --rate: the next slot of its schedule (see pacing.h) */
    uint8_t waiting;   /* --rate: in its worker's heap, waiting for its slot */
    uint8_t on_grid;   /* --rate: its first block was put on its schedule's grid (pacing_first_send) */
    uint8_t reconnecting; /* --reconnect: connecting again, after its first connection (not counted again) */
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
    struct session **heap; /* --rate: sessions waiting for their slot, earliest first (capacity nsessions) */
    int heap_len;
    _Atomic uint64_t bytes;
    _Atomic uint64_t msgs;
    _Atomic int connected;
    _Atomic int echoed;
};

/* Where the sessions connect (set by the main thread before the workers start). */
extern struct sockaddr_storage server_addr;
extern socklen_t server_addr_len;

/*
 * Sets the stream every session sends (window_bytes: bytes in flight per session, the block for ping-pong; the
 * byte pattern verified on return) before the workers start. Returns how many send times each session's stamps
 * ring must hold (the blocks that can be in flight, plus one).
 */
uint64_t set_stream(uint64_t window_bytes);

/*
 * --rate: gives every session its first slot, the schedules spread evenly from t0 (before the workers start;
 * the sessions' ids are their indexes).
 */
void set_pacing(struct session *sessions, int n, uint64_t t0);

/* The thread function of a worker (arg: its struct worker). Returns when the phase is PH_DONE or on a failure. */
void *worker_main(void *arg);

#endif
