package dev.proactor.examples;

/**
 * A log-linear histogram of nanosecond values (HdrHistogram-style): each power of two is split into 64 linear
 * sub-buckets, so a recorded value is known to within about 1.6 %. Every value is recorded; nothing is
 * sampled. Not thread-safe: record from one thread, or give each thread its own and {@link #add} them.
 */
final class LatencyHistogram {

    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;
    private final long[] counts = new long[64 * SUB];
    private long total;

    void record(long nanos) {
        counts[index(Math.max(0, nanos))]++;
        total++;
    }

    void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
    }

    void clear() {
        java.util.Arrays.fill(counts, 0);
        total = 0;
    }

    long count() {
        return total;
    }

    /** The value at quantile {@code q} (0..1), as the upper edge of its bucket; 0 when empty. */
    long quantile(double q) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperEdge(i);
            }
        }
        return upperEdge(counts.length - 1);
    }

    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int msb = 63 - Long.numberOfLeadingZeros(v);
        int shift = msb - SUB_BITS;                  // keeps SUB_BITS + 1 significant bits
        int sub = (int) (v >>> shift) - SUB;         // position inside this power of two, 0..SUB-1
        return (shift + 1) * SUB + sub;
    }

    static long upperEdge(int index) {
        int e = index / SUB;
        int sub = index % SUB;
        if (e == 0) {
            return sub;
        }
        return ((long) (SUB + sub + 1) << (e - 1)) - 1;
    }
}
