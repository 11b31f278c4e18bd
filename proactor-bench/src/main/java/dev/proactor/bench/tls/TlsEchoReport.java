package dev.proactor.bench.tls;

import dev.proactor.bench.harness.Markdown;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * Turns the runs into the summary (median of the runs per server, transport and mode; percentiles over every
 * run's round trips; ratio against {@code netty-tls-TRANSPORT} in the same mode) as markdown and CSV.
 */
public final class TlsEchoReport {

    /** CSV header of {@link #summaryCsv()}. */
    public static final String SUMMARY_HEADER =
            "server,transport,mode,runs,mib_per_s,msgs_per_s,p50_us,p99_us,ratio_vs_netty,cipher,server_cpu_pct,"
                    + "server_cpu_us_per_msg,client_cpu_pct";
    /** CSV header of {@link #runsCsv()}. */
    public static final String RUNS_HEADER = "server,transport,mode,run,block,bytes,seconds,mib_per_s,msgs_per_s,"
            + "p50_us,p99_us,cipher,server_cpu_pct,server_cpu_us_per_msg,client_cpu_pct,client_reads_per_msg";

    private final List<TlsEchoResult> results;
    private final List<String> notes;

    /**
     * A report.
     *
     * @param results every run, in order
     * @param notes   lines about skipped or failed servers, printed under the table
     */
    public TlsEchoReport(List<TlsEchoResult> results, List<String> notes) {
        this.results = List.copyOf(results);
        this.notes = List.copyOf(notes);
    }

    /** The runs of one server, transport and mode. */
    record Summary(String server, String transport, Mode mode, int runs, double mibPerSecond, double msgsPerSecond,
                   long p50Us, long p99Us, String cipher, double serverCpuPercent, double serverCpuUsPerMsg,
                   double clientCpuPercent) {
    }

    /**
     * One summary per server, transport and mode, in the order first run.
     *
     * @return the summaries
     */
    List<Summary> summaries() {
        Map<String, List<TlsEchoResult>> groups = new LinkedHashMap<>();
        for (TlsEchoResult r : results) {
            groups.computeIfAbsent(r.server() + "|" + r.transport() + "|" + r.mode(), k -> new ArrayList<>()).add(r);
        }
        List<Summary> out = new ArrayList<>();
        for (List<TlsEchoResult> g : groups.values()) {
            TlsEchoResult first = g.get(0);
            Histogram all = new Histogram(3);
            for (TlsEchoResult r : g) {
                all.add(r.latencyUs());
            }
            long p50 = all.getTotalCount() == 0 ? -1 : all.getValueAtPercentile(50);
            long p99 = all.getTotalCount() == 0 ? -1 : all.getValueAtPercentile(99);
            out.add(new Summary(first.server(), first.transport(), first.mode(), g.size(),
                    median(g.stream().mapToDouble(TlsEchoResult::mibPerSecond).toArray()),
                    median(g.stream().mapToDouble(TlsEchoResult::msgsPerSecond).toArray()), p50, p99,
                    first.cipher(), median(g.stream().mapToDouble(TlsEchoResult::serverCpuPercent).toArray()),
                    median(g.stream().mapToDouble(TlsEchoResult::serverCpuUsPerMsg).toArray()),
                    median(g.stream().mapToDouble(TlsEchoResult::clientCpuPercent).toArray())));
        }
        return out;
    }

    /**
     * A summary's throughput over the Netty row's of the same transport and mode, or NaN when that row is missing.
     *
     * @param s the summary
     * @param all every summary
     * @return the ratio
     */
    static double ratio(Summary s, List<Summary> all) {
        for (Summary b : all) {
            if (b.server().startsWith("netty-tls-") && b.transport().equals(s.transport())
                    && b.mode() == s.mode() && b.mibPerSecond() > 0) {
                return s.mibPerSecond() / b.mibPerSecond();
            }
        }
        return Double.NaN;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /**
     * The markdown table and the notes.
     *
     * @param title first line (a heading with the parameters)
     * @return markdown text
     */
    public String markdown(String title) {
        StringBuilder b = new StringBuilder();
        b.append("## ").append(title).append("\n\n");
        b.append("| server | transport | mode | MiB/s | msgs/s | p50 µs | p99 µs | vs netty-tls | server CPU % "
                + "| server CPU µs/msg | client CPU % | runs | cipher |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        List<Summary> all = summaries();
        for (Summary s : all) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.0f | %s | %s | %s | %s | %s | %s | %d | %s |%n",
                    s.server(), s.transport(), s.mode().label(), s.mibPerSecond(), s.msgsPerSecond(),
                    latency(s.p50Us()), latency(s.p99Us()), ratioText(ratio(s, all)), number(s.serverCpuPercent(), 0),
                    number(s.serverCpuUsPerMsg(), 2), number(s.clientCpuPercent(), 0), s.runs(), s.cipher()));
        }
        if (!notes.isEmpty()) {
            b.append('\n');
            Markdown.bullets(b, notes);
        }
        return b.toString();
    }

    /**
     * The summary as CSV (header first); missing percentiles and ratios are empty fields.
     *
     * @return CSV text
     */
    public String summaryCsv() {
        StringBuilder b = new StringBuilder(SUMMARY_HEADER).append('\n');
        List<Summary> all = summaries();
        for (Summary s : all) {
            double r = ratio(s, all);
            b.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.3f,%.1f,%s,%s,%s,%s,%s,%s,%s%n", s.server(),
                    s.transport(), s.mode().label(), s.runs(), s.mibPerSecond(), s.msgsPerSecond(),
                    csvLatency(s.p50Us()), csvLatency(s.p99Us()), csvNumber(r, 3), Objects.toString(s.cipher(), ""),
                    csvNumber(s.serverCpuPercent(), 1), csvNumber(s.serverCpuUsPerMsg(), 3),
                    csvNumber(s.clientCpuPercent(), 1)));
        }
        return b.toString();
    }

    /**
     * Every run as CSV (header first).
     *
     * @return CSV text
     */
    public String runsCsv() {
        StringBuilder b = new StringBuilder(RUNS_HEADER).append('\n');
        for (TlsEchoResult r : results) {
            b.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%.3f,%.3f,%.1f,%s,%s,%s,%s,%s,%s,%s%n", r.server(),
                    r.transport(), r.mode().label(), r.run(), r.block(), r.bytes(), r.seconds(), r.mibPerSecond(),
                    r.msgsPerSecond(), csvLatency(r.latencyPercentileUs(50)), csvLatency(r.latencyPercentileUs(99)),
                    Objects.toString(r.cipher(), ""), csvNumber(r.serverCpuPercent(), 1),
                    csvNumber(r.serverCpuUsPerMsg(), 3), csvNumber(r.clientCpuPercent(), 1),
                    csvNumber(r.clientReadsPerMsg(), 3)));
        }
        return b.toString();
    }

    private static String latency(long us) {
        return us < 0 ? "–" : Long.toString(us);
    }

    private static String csvLatency(long us) {
        return us < 0 ? "" : Long.toString(us);
    }

    private static String number(double v, int decimals) {
        return Markdown.number(v, "%." + decimals + "f", "–");
    }

    private static String csvNumber(double v, int decimals) {
        return Markdown.number(v, "%." + decimals + "f", "");
    }

    private static String ratioText(double r) {
        return Markdown.number(r, "%.2fx", "–");
    }
}
