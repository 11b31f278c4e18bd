package dev.proactor.bench.matrix;

import java.util.HashMap;
import java.util.Map;

/**
 * The load generator's {@code RESULT key=value ...} line.
 *
 * @param bytesPerS     echoed bytes per second
 * @param msgsPerS      echoed blocks per second
 * @param p50Us         median block round trip, microseconds
 * @param p99Us         99th percentile
 * @param p999Us        99.9th percentile
 * @param clientCpuPct  the load generator's own CPU use during the measurement, percent of one core
 * @param serverCpuPct  the server process's CPU use over the same interval, NaN when not measured
 * @param serverUserCpuPct the user-mode part of {@code serverCpuPct} (the program's own code, not the kernel's
 *                      work on its behalf), NaN when not measured
 * @param otherCpuPct   user CPU of every other process on the machine, NaN when not measured
 * @param fairness      blocks completed per session, {@link SessionFairness#UNKNOWN} from an older generator
 * @param offeredMsgsPerS blocks per second the generator offered ({@code --rate}), 0 when unpaced, NaN from an older
 *                      generator
 */
public record LoadResult(double bytesPerS, double msgsPerS, double p50Us, double p99Us, double p999Us,
                         double clientCpuPct, double serverCpuPct, double serverUserCpuPct, double otherCpuPct,
                         SessionFairness fairness,
                         double offeredMsgsPerS) {

    /** Prefix of the machine-readable line. */
    public static final String PREFIX = "RESULT ";

    /** User CPU of other processes (percent of one core) from which a run counts as disturbed. */
    public static final double OTHER_BUSY_PCT = 10;

    /**
     * Whether other processes competed for the CPUs during the measurement.
     *
     * @return true when their user CPU reached {@link #OTHER_BUSY_PCT}; false when unknown
     */
    public boolean otherWorkRan() {
        return otherCpuPct >= OTHER_BUSY_PCT;
    }

    /**
     * Parses a RESULT line.
     *
     * @param line the line
     * @return the result
     * @throws IllegalArgumentException when the line is not a RESULT line or a field is missing
     */
    public static LoadResult parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a RESULT line: " + line);
        }
        Map<String, String> kv = new HashMap<>();
        for (String field : line.substring(PREFIX.length()).trim().split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                kv.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        return new LoadResult(num(kv, "bytes_per_s", line), num(kv, "msgs_per_s", line), num(kv, "p50_us", line),
                num(kv, "p99_us", line), num(kv, "p999_us", line), num(kv, "cpu_pct", line),
                optional(kv, "server_cpu_pct"), optional(kv, "server_user_cpu_pct"),
                optional(kv, "other_user_cpu_pct"),
                SessionFairness.fromFields(kv, line), optional(kv, "offered_msgs_per_s"));
    }

    /** A field that older generators omit or report as -1 (unknown): NaN then. */
    private static double optional(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            return Double.NaN;
        }
        try {
            double d = Double.parseDouble(v);
            return d < 0 ? Double.NaN : d;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static double num(Map<String, String> kv, String key, String line) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("RESULT line lacks " + key + ": " + line);
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("RESULT field " + key + " is not a number: " + line, e);
        }
    }
}
