#include "histogram.h"

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

void hist_merge(struct histogram *into, const struct histogram *from)
{
    for (unsigned i = 0; i < H_BUCKETS; i++)
        into->buckets[i] += from->buckets[i];
    into->count += from->count;
    into->sum += from->sum;
    if (from->max > into->max)
        into->max = from->max;
}

uint64_t hist_percentile(const struct histogram *h, double pct)
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
