/* The pacing arithmetic of --rate (see pacing.h). */
#include "pacing.h"

#include <math.h>
#include <stdio.h>

struct pacing pacing_of(double rate, int sessions, uint64_t window_blocks)
{
    double ns = round(1e9 * (double)sessions / rate);
    struct pacing p;
    p.interval_ns = ns < 1 ? 1 : (uint64_t)ns;
    p.max_lag_ns = p.interval_ns * (window_blocks < 1 ? 1 : window_blocks);
    return p;
}

uint64_t pacing_first_slot(const struct pacing *p, uint64_t t0, int index, int sessions)
{
    return t0 + (uint64_t)((double)p->interval_ns * index / sessions);
}

uint64_t pacing_next_slot(const struct pacing *p, uint64_t due, uint64_t now)
{
    /* Whole slots are dropped, so the session keeps its place on the grid: moving the slot to the send time
     * instead would gather every session that one stall delayed into a burst, and keep them there. */
    if (now > due + p->max_lag_ns)
        due += (now - p->max_lag_ns - due) / p->interval_ns * p->interval_ns;
    return due + p->interval_ns;
}

uint64_t pacing_first_send(const struct pacing *p, uint64_t first_slot, uint64_t now)
{
    if (now <= first_slot)
        return first_slot;
    uint64_t k = (now - first_slot + p->interval_ns - 1) / p->interval_ns;
    return first_slot + k * p->interval_ns;
}

static int check(const char *what, uint64_t got, uint64_t expect)
{
    if (got == expect)
        return 0;
    fprintf(stderr, "loadgen: pacing self-test FAILED: %s: got %llu, expected %llu\n", what,
            (unsigned long long)got, (unsigned long long)expect);
    return 1;
}

int pacing_self_test(void)
{
    int bad = 0;
    /* 1000 blocks/s over 4 sessions: each session every 4 ms, their slots 1 ms apart. */
    struct pacing p = pacing_of(1000, 4, 1);
    bad |= check("interval of 1000/s over 4 sessions", p.interval_ns, 4000000);
    bad |= check("max lag of a ping-pong session", p.max_lag_ns, 4000000);
    bad |= check("first slot of session 0", pacing_first_slot(&p, 100, 0, 4), 100);
    bad |= check("first slot of session 3", pacing_first_slot(&p, 100, 3, 4), 3000100);
    /* On time or a little late: the schedule holds (no drift from late sends). */
    bad |= check("next slot when on time", pacing_next_slot(&p, 8000000, 8000000), 12000000);
    bad |= check("next slot when 3 ms late", pacing_next_slot(&p, 8000000, 11000000), 12000000);
    /* Exactly one window behind: still allowed to catch up. */
    bad |= check("next slot when one window late", pacing_next_slot(&p, 8000000, 12000000), 12000000);
    /* Ten windows behind: the old slots are dropped, one slot of catch-up remains. */
    bad |= check("next slot when 40 ms late", pacing_next_slot(&p, 8000000, 48000000), 48000000);
    /* Between two slots: the session keeps its phase (slots 8, 12, ... ms), it is not moved to the send time. */
    bad |= check("next slot when 41 ms late", pacing_next_slot(&p, 8000000, 49000000), 48000000);
    bad |= check("next slot when 43.5 ms late", pacing_next_slot(&p, 8000000, 51500000), 48000000);
    /* A window of 8 blocks may fall 8 slots behind. */
    struct pacing w = pacing_of(1000, 4, 8);
    bad |= check("max lag of an 8-block window", w.max_lag_ns, 32000000);
    bad |= check("next slot 20 ms late with 8 blocks", pacing_next_slot(&w, 8000000, 28000000), 12000000);
    bad |= check("next slot 100 ms late with 8 blocks", pacing_next_slot(&w, 8000000, 108000000), 80000000);
    bad |= check("next slot 101 ms late with 8 blocks", pacing_next_slot(&w, 8000000, 109000000), 80000000);
    /* The first block waits for the session's grid: no catch-up after a slow connect. */
    bad |= check("first send before the first slot", pacing_first_send(&p, 3000100, 1000), 3000100);
    bad |= check("first send on a slot", pacing_first_send(&p, 3000100, 7000100), 7000100);
    bad |= check("first send between slots", pacing_first_send(&p, 3000100, 7000101), 11000100);
    /* Rounding: 3 blocks/s for one session is 333333333 ns; 1e9 blocks/s is clamped to 1 ns. */
    bad |= check("interval of 3/s", pacing_of(3, 1, 1).interval_ns, 333333333);
    bad |= check("interval of 1e12/s", pacing_of(1e12, 1, 1).interval_ns, 1);
    return bad;
}
