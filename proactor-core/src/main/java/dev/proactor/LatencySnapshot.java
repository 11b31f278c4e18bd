package dev.proactor;

/**
 * Percentiles of a recorded duration, in nanoseconds (each within about 6 % of the true value; the maximum is
 * exact).
 *
 * @param count      how many durations were recorded
 * @param p50Nanos   median
 * @param p99Nanos   99th percentile
 * @param p999Nanos  99.9th percentile
 * @param maxNanos   largest
 */
public record LatencySnapshot(long count, long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos) {

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "count=%d p50=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus",
                count, p50Nanos / 1e3, p99Nanos / 1e3, p999Nanos / 1e3, maxNanos / 1e3);
    }
}
