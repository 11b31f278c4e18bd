package dev.proactor.internal;

import dev.proactor.LatencySnapshot;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A thread-safe, allocation-free histogram of nanosecond durations with log-linear buckets (16 per power of two,
 * so a reported percentile is within about 6 % of the true value). Recording is one atomic increment; reading
 * makes a {@link LatencySnapshot}. Used by {@link DispatchStatistics}.
 */
public final class LatencyRecorder {

    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS + 1) * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong max = new AtomicLong();

    /** Records one duration; negative values (a clock quirk) count as 0. Any thread. */
    void record(long nanos) {
        long v = Math.max(0, nanos);
        counts.incrementAndGet(bucketOf(v));
        max.accumulateAndGet(v, Math::max); // a non-capturing method reference: no allocation
    }

    static int bucketOf(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) ((v >>> (exp - SUB_BITS)) & (SUB - 1));
        return (exp - SUB_BITS + 1) * SUB + sub;
    }

    /** The smallest value that falls into {@code bucket}. */
    static long lowestOf(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        int exp = bucket / SUB + SUB_BITS - 1;
        long sub = bucket % SUB;
        return (1L << exp) | (sub << (exp - SUB_BITS));
    }

    /** A consistent-enough view (counts read one by one while others may record). */
    public LatencySnapshot snapshot() {
        long[] c = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            c[i] = counts.get(i);
            total += c[i];
        }
        long mx = max.get();
        return new LatencySnapshot(total, percentile(c, total, 0.50, mx), percentile(c, total, 0.99, mx),
                percentile(c, total, 0.999, mx), mx);
    }

    private static long percentile(long[] c, long total, double q, long max) {
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < c.length; i++) {
            seen += c[i];
            if (seen >= rank) {
                return Math.min(lowestOf(i), max);
            }
        }
        return max;
    }

    /** Forgets everything recorded so far. */
    public void reset() {
        for (int i = 0; i < BUCKETS; i++) {
            counts.set(i, 0);
        }
        max.set(0);
    }
}
