/*
 * Paced sending (--rate R): R blocks per second offered in total, spread evenly over the sessions. Session i of N
 * may start its k-th block at t0 + (i + k * N) / R seconds (its schedule), and only once the window allows it (in
 * ping-pong: when its previous echo is complete). A session that falls behind its schedule by more than one window
 * (the blocks its window holds, one in ping-pong) drops the older slots: it catches up by at most one window, it
 * never bursts to make up for a stall, and it keeps its slots' phase. The arithmetic is here, pure, for --self-test; sessions.c applies it.
 */
#ifndef LOADGEN_PACING_H
#define LOADGEN_PACING_H

#include <stdint.h>

struct pacing {
    uint64_t interval_ns; /* between two slots of one session: sessions / rate seconds, >= 1 */
    uint64_t max_lag_ns;  /* how far behind its schedule a session may send: one window's slots */
};

/* The pacing of `rate` blocks per second over `sessions` sessions, `window_blocks` (>= 1) blocks per window. */
struct pacing pacing_of(double rate, int sessions, uint64_t window_blocks);

/* The first slot of session `index` (0-based) of `sessions`: the sessions' schedules spread evenly from t0. */
uint64_t pacing_first_slot(const struct pacing *p, uint64_t t0, int index, int sessions);

/*
 * A block is sent at `now` for the slot `due` (due <= now): returns the session's next slot. A session further
 * behind than max_lag_ns drops whole slots first, the fewest that leave it at most max_lag_ns behind: the catch-up is
 * at most one window, and the session keeps its place on its grid, so a stall of the server does not gather the
 * sessions it delayed into a burst that lasts the rest of the run.
 */
uint64_t pacing_next_slot(const struct pacing *p, uint64_t due, uint64_t now);

/*
 * A session's first block: the first slot of its grid (first_slot + k * interval) at or after `now`. The schedules
 * start before the sessions connect; without this every session would start a whole window behind and the run would
 * begin with a burst of catch-up.
 */
uint64_t pacing_first_send(const struct pacing *p, uint64_t first_slot, uint64_t now);

/* --self-test: the pacing arithmetic on fixed cases; prints one line per failed case, returns 0 when all pass. */
int pacing_self_test(void);

#endif
