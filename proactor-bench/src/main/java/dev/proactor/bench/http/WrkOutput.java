package dev.proactor.bench.http;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text wrk 4 prints with {@code --latency}:
 * <pre>
 *     Latency   509.23us  120.11us   5.00ms   90.00%     (Thread Stats: avg, stdev, max, +/-)
 *      50%  480.00us                                     (Latency Distribution)
 *      99%    1.00ms
 *   780000 requests in 8.00s, 900.00MB read
 *   Socket errors: connect 0, read 0, write 0, timeout 0  (only when not all zero)
 *   Non-2xx or 3xx responses: 12                        (only when not zero)
 * Requests/sec:  97500.00
 * Transfer/sec:    112.50MB
 * </pre>
 * Times carry {@code us}, {@code ms}, {@code s}, {@code m} or {@code h}; sizes {@code B}, {@code KB},
 * {@code MB}, {@code GB}, {@code TB} (powers of 1024).
 */
public final class WrkOutput {
    private static final String NUM = "([0-9]+(?:\\.[0-9]+)?)";
    private static final Pattern LATENCY_STATS = Pattern.compile(
            "^\\s*Latency\\s+" + NUM + "([a-z]+)\\s+" + NUM + "([a-z]+)\\s+" + NUM + "([a-z]+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)%\\s+" + NUM + "([a-z]+)\\s*$");
    private static final Pattern TOTALS = Pattern.compile(
            "^\\s*([0-9]+) requests in " + NUM + "([a-z]+), " + NUM + "([KMGTP]?B) read");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "^\\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)");
    private static final Pattern NON_2XX = Pattern.compile("^\\s*Non-2xx or 3xx responses: ([0-9]+)");
    private static final Pattern REQUESTS_PER_S = Pattern.compile("^Requests/sec:\\s+" + NUM + "\\s*$");
    private static final Pattern TRANSFER_PER_S = Pattern.compile("^Transfer/sec:\\s+" + NUM + "([KMGTP]?B)\\s*$");

    private WrkOutput() {
    }

    /**
     * Parses wrk's output.
     *
     * @param lines the lines wrk printed on stdout
     * @return the result
     * @throws IllegalArgumentException when a required line (Requests/sec, Transfer/sec, the totals,
     *                                  the 50 % and 99 % percentiles) is missing or a unit is unknown
     */
    public static WrkResult parse(List<String> lines) {
        double rps = Double.NaN;
        double transfer = Double.NaN;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double max = Double.NaN;
        long requests = -1;
        double read = Double.NaN;
        long non2xx = 0;
        long[] socket = new long[4];
        for (String line : lines) {
            Matcher m;
            if ((m = LATENCY_STATS.matcher(line)).find()) {
                max = micros(m.group(5), m.group(6));
            } else if ((m = PERCENTILE.matcher(line)).find()) {
                double v = micros(m.group(2), m.group(3));
                if (m.group(1).equals("50")) {
                    p50 = v;
                } else {
                    p99 = v;
                }
            } else if ((m = TOTALS.matcher(line)).find()) {
                requests = Long.parseLong(m.group(1));
                read = bytes(m.group(4), m.group(5));
            } else if ((m = SOCKET_ERRORS.matcher(line)).find()) {
                for (int i = 0; i < 4; i++) {
                    socket[i] = Long.parseLong(m.group(i + 1));
                }
            } else if ((m = NON_2XX.matcher(line)).find()) {
                non2xx = Long.parseLong(m.group(1));
            } else if ((m = REQUESTS_PER_S.matcher(line)).find()) {
                rps = Double.parseDouble(m.group(1));
            } else if ((m = TRANSFER_PER_S.matcher(line)).find()) {
                transfer = bytes(m.group(1), m.group(2));
            }
        }
        require(!Double.isNaN(rps), "Requests/sec");
        require(!Double.isNaN(transfer), "Transfer/sec");
        require(requests >= 0, "'N requests in T, S read'");
        require(!Double.isNaN(p50) && !Double.isNaN(p99), "the 50% and 99% latency percentiles (--latency)");
        return new WrkResult(rps, transfer, p50, p99, Double.isNaN(max) ? p99 : max, requests, read, non2xx,
                socket[0], socket[1], socket[2], socket[3]);
    }

    private static void require(boolean present, String what) {
        if (!present) {
            throw new IllegalArgumentException("wrk output has no " + what);
        }
    }

    /**
     * Converts a wrk time to microseconds.
     *
     * @param number the number
     * @param unit   us, ms, s, m or h
     * @return microseconds
     */
    static double micros(String number, String unit) {
        double v = Double.parseDouble(number);
        switch (unit) {
            case "us":
                return v;
            case "ms":
                return v * 1e3;
            case "s":
                return v * 1e6;
            case "m":
                return v * 60e6;
            case "h":
                return v * 3600e6;
            default:
                throw new IllegalArgumentException("unknown wrk time unit '" + unit + "'");
        }
    }

    /**
     * Converts a wrk size to bytes.
     *
     * @param number the number
     * @param unit   B, KB, MB, GB, TB or PB (powers of 1024)
     * @return bytes
     */
    static double bytes(String number, String unit) {
        String prefixes = "KMGTP";
        double v = Double.parseDouble(number);
        if (unit.length() == 1) {
            return v;
        }
        int power = prefixes.indexOf(unit.charAt(0)) + 1;
        return v * Math.pow(1024, power);
    }
}
