/*
 * Log-linear latency histogram (HdrHistogram-style buckets, about 0.8 % relative precision). Not thread-safe:
 * each worker records into its own, and the main thread merges them after the workers stopped.
 */
#ifndef LOADGEN_HISTOGRAM_H
#define LOADGEN_HISTOGRAM_H

#include <stdint.h>

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

/* Inline: called for every echoed block on the workers' hot path. */
static inline void hist_record(struct histogram *h, uint64_t v)
{
    h->buckets[hist_index(v)]++;
    h->count++;
    h->sum += (double)v;
    if (v > h->max)
        h->max = v;
}

void hist_merge(struct histogram *into, const struct histogram *from);

/* The value at percentile pct (0..100]: the highest value of its bucket, capped by the largest recorded. */
uint64_t hist_percentile(const struct histogram *h, double pct);

#endif
