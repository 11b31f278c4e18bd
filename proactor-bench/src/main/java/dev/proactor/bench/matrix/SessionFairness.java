package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How evenly the server served its sessions: blocks (ping-pong: round trips) completed per
 * session over the measured interval, from the load generator's {@code session_msgs_*} and
 * {@code idle_sessions} fields.
 *
 * @param min        fewest blocks a session completed
 * @param median     median over the sessions
 * @param max        most blocks a session completed
 * @param maxOverMin max / min; infinite when min is 0
 * @param idle       sessions that completed nothing
 */
public record SessionFairness(double min, double median, double max, double maxOverMin, int idle) {

    /** A RESULT line without these fields (older load generator). */
    public static final SessionFairness UNKNOWN =
            new SessionFairness(Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1);

    /** Keys of the RESULT fields, in the order the load generator prints them. */
    static final List<String> KEYS = List.of("session_msgs_min", "session_msgs_median", "session_msgs_max",
            "session_msgs_max_over_min", "idle_sessions");

    /**
     * Whether the figures were measured.
     *
     * @return false for {@link #UNKNOWN}
     */
    public boolean known() {
        return !Double.isNaN(min);
    }

    /**
     * Reads the fields of a RESULT line.
     *
     * @param kv   the line's key=value pairs
     * @param line the line, for messages
     * @return the figures, or {@link #UNKNOWN} when the line has none of them
     * @throws IllegalArgumentException when only some are present or one is malformed
     */
    static SessionFairness fromFields(Map<String, String> kv, String line) {
        int present = 0;
        for (String k : KEYS) {
            present += kv.containsKey(k) ? 1 : 0;
        }
        if (present == 0) {
            return UNKNOWN;
        }
        if (present < KEYS.size()) {
            throw new IllegalArgumentException("RESULT line has only some of " + KEYS + ": " + line);
        }
        try {
            int idle = Integer.parseInt(kv.get("idle_sessions"));
            if (idle < 0) {
                throw new NumberFormatException("negative idle_sessions");
            }
            return new SessionFairness(Double.parseDouble(kv.get("session_msgs_min")),
                    Double.parseDouble(kv.get("session_msgs_median")), Double.parseDouble(kv.get("session_msgs_max")),
                    parseRatio(kv.get("session_msgs_max_over_min")), idle);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("RESULT fairness field is not a number: " + line, e);
        }
    }

    /**
     * Parses a ratio as the load generator prints it.
     *
     * @param text a number, or {@code inf}
     * @return the value ({@link Double#POSITIVE_INFINITY} for {@code inf})
     * @throws NumberFormatException when malformed
     */
    static double parseRatio(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("inf") || t.equals("+inf") || t.equals("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        double v = Double.parseDouble(t);
        if (Double.isNaN(v) || v < 0) {
            throw new NumberFormatException("not a ratio: " + text);
        }
        return v;
    }

    /**
     * The ratio as CSV and the report write it: {@code inf} when min was 0, {@code -} unknown.
     *
     * @param ratio max/min
     * @return the text
     */
    static String ratioText(double ratio) {
        if (Double.isNaN(ratio)) {
            return "-";
        }
        return Double.isInfinite(ratio) ? "inf" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /**
     * Summary of repeated runs of one server at one point: min, median and max are the medians
     * of the runs' values; max/min and idle are those of the worst run (the largest), so one
     * starved run is not averaged away.
     *
     * @param runs the runs' figures (unknown ones are ignored)
     * @return the summary, {@link #UNKNOWN} when no run has figures
     */
    public static SessionFairness summarize(List<SessionFairness> runs) {
        List<SessionFairness> known = new ArrayList<>();
        for (SessionFairness f : runs) {
            if (f.known()) {
                known.add(f);
            }
        }
        if (known.isEmpty()) {
            return UNKNOWN;
        }
        double worstRatio = 0;
        int worstIdle = 0;
        for (SessionFairness f : known) {
            worstRatio = Math.max(worstRatio, f.maxOverMin());
            worstIdle = Math.max(worstIdle, f.idle());
        }
        return new SessionFairness(Stats.of(known, SessionFairness::min).median(),
                Stats.of(known, SessionFairness::median).median(), Stats.of(known, SessionFairness::max).median(),
                worstRatio, worstIdle);
    }

    /**
     * The max/min cell of the report: {@code 1.04}, {@code inf (3 idle)}, or {@code -}.
     *
     * @return the text
     */
    public String ratioCell() {
        if (!known()) {
            return "-";
        }
        return ratioText(maxOverMin) + (idle > 0 ? " (" + idle + " idle)" : "");
    }
}
