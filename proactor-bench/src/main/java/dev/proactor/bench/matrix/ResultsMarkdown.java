package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Markdown;
import dev.proactor.bench.harness.Stats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code results.md}: whether the machine was quiet, the context of the run, skipped servers
 * and failures, an overview of median throughput, the tail latency and per-session fairness
 * of every ping-pong row, then per row the median per server with its min-max spread, the
 * fairness figures and the ratios to netty-nio, netty-epoll and jdk-nio2 measured in the same run.
 */
public final class ResultsMarkdown {
    /** Client CPU share from which the load generator may be the limit. */
    static final double CLIENT_BOUND_PCT = 80;
    /** Server CPU share from which the server counts as saturated. */
    static final double SERVER_BUSY_PCT = 90;
    /** User CPU of other processes from which a run counts as disturbed. */
    static final double OTHER_BUSY_PCT = LoadResult.OTHER_BUSY_PCT;
    /** The rule printed at the top of every report. */
    static final String QUIET_RULE = "benchmarks must run with nothing else on the machine; "
            + "rows measured while other work ran are flagged";

    private final MatrixOptions options;
    private final List<String> context;

    /**
     * Creates the writer.
     *
     * @param options matrix options
     * @param context lines describing the machine, JVM and command (written as a list)
     */
    public ResultsMarkdown(MatrixOptions options, List<String> context) {
        this.options = options;
        this.context = List.copyOf(context);
    }

    /**
     * Writes the report.
     *
     * @param file    results.md
     * @param outcome measurements so far
     * @param charts  chart files (or notes); null while the run is in progress
     * @throws IOException when it cannot be written
     */
    public void write(Path file, MatrixOutcome outcome, List<String> charts) throws IOException {
        Files.writeString(file, render(outcome, charts), StandardCharsets.UTF_8);
    }

    /**
     * The report's text.
     *
     * @param outcome measurements so far
     * @param charts  chart files (or notes); null while the run is in progress
     * @return Markdown
     */
    String render(MatrixOutcome outcome, List<String> charts) {
        StringBuilder md = new StringBuilder();
        md.append("# Echo benchmark matrix\n\n");
        if (charts == null) {
            md.append("**In progress** - this file is rewritten after every row.\n\n");
        }
        quiet(md, outcome);
        Markdown.bullets(md, context);
        md.append('\n');
        md.append("Throughput is echoed payload per second (MB = 10^6 bytes), msgs = echoed blocks. Latency is per block, "
                + "from its write to the last byte of its echo (ping-pong: every round trip). Values are medians of "
                + "the runs, spread is min-max of throughput. Ratios divide medians measured in this same run. On this "
                + "machine repetitions differ by up to +-40 %: a difference under 20 % is noise unless repeated runs agree. "
                + "Server CPU is the server process over the same interval (100 = its one pinned core busy); server "
                + "us/msg is that CPU time per echoed block (median of the runs), the figure that compares servers "
                + "when the load generator is the limit. "
                + "! marks a client CPU of " + (int) CLIENT_BOUND_PCT + " % or more while the server stayed below "
                + (int) SERVER_BUSY_PCT + " %: there the load generator, not the server, is probably the limit. "
                + "Other CPU is the user time of every other process on the machine during the measurement (the worst "
                + "run); ! from " + (int) OTHER_BUSY_PCT + " % on: something else competed for the cores.\n\n");
        md.append("Fairness: msgs/session are the blocks (ping-pong: round trips) each session completed in the "
                + "measured interval; min, median and max over the sessions (medians of the runs), and max/min of the "
                + "worst run: near 1 every session was served alike, inf means some sessions completed nothing "
                + "(their count in parentheses).\n\n");
        skipped(md, outcome.skipped());
        failures(md, outcome.failures());
        overview(md, outcome);
        tail(md, outcome);
        for (int i = 0; i < options.rows().size(); i++) {
            row(md, i, options.rows().get(i), outcome);
        }
        if (charts != null) {
            md.append("## Charts\n\n");
            if (charts.isEmpty()) {
                md.append("No chart: no sweep in this table has two or more session counts or block sizes "
                        + "with everything else equal.\n");
            }
            for (String c : charts) {
                md.append("![").append(c).append("](").append(c).append(")\n\n");
            }
        }
        return md.toString();
    }

    private void quiet(StringBuilder md, MatrixOutcome outcome) {
        md.append("**Quiet machine:** ").append(QUIET_RULE).append(" (`disturbed`). ");
        if (options.disturbed()) {
            md.append("This run is **DISTURBED**: other work ran on the machine (declared with `--disturbed`); "
                    + "every row is flagged, its figures are not for publishing.");
        } else {
            int runs = outcome.records().size();
            int busy = 0;
            int unknown = 0;
            for (RunRecord r : outcome.records()) {
                busy += r.result().otherWorkRan() ? 1 : 0;
                unknown += Double.isNaN(r.result().otherCpuPct()) ? 1 : 0;
            }
            if (runs == 0) {
                md.append("No other work declared; nothing measured yet.");
            } else if (busy > 0) {
                md.append(String.format(Locale.ROOT, "No other work declared, but in %d of %d runs other processes "
                        + "used %d %% of a core or more: those rows are flagged **disturbed**.", busy, runs,
                        (int) OTHER_BUSY_PCT));
            } else {
                md.append(String.format(Locale.ROOT, "No other work declared, and in every run other processes used "
                        + "under %d %% of a core%s.", (int) OTHER_BUSY_PCT,
                        unknown > 0 ? " (" + unknown + " run(s) could not measure it)" : ""));
            }
        }
        md.append('\n');
        if (!options.note().isEmpty()) {
            md.append("\n**Note:** ").append(cell(options.note())).append('\n');
        }
        md.append('\n');
    }

    private static void skipped(StringBuilder md, Map<String, String> skipped) {
        if (skipped.isEmpty()) {
            return;
        }
        md.append("## Skipped servers\n\n| server | reason |\n|---|---|\n");
        for (Map.Entry<String, String> e : skipped.entrySet()) {
            md.append("| ").append(e.getKey()).append(" | ").append(cell(e.getValue())).append(" |\n");
        }
        md.append('\n');
    }

    private static void failures(StringBuilder md, List<String> failures) {
        Markdown.section(md, "Failed runs", failures);
    }

    private void overview(StringBuilder md, MatrixOutcome outcome) {
        md.append("## Overview: median MB/s\n\n");
        md.append("`*` = measured while other work ran (disturbed).\n\n");
        md.append("| # | sessions | threads | block | window | delay us |");
        StringBuilder sep = new StringBuilder("|---|---|---|---|---|---|");
        for (ServerDefinition s : options.servers()) {
            md.append(' ').append(s.name()).append(" |");
            sep.append("---|");
        }
        md.append('\n').append(sep).append('\n');
        for (int i = 0; i < options.rows().size(); i++) {
            Row r = options.rows().get(i);
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %s | %d |", i + 1, r.sessions(), r.threads(),
                    r.block(), r.pingPong() ? "ping-pong" : r.windowLabel(), r.delayUs()));
            for (ServerDefinition s : options.servers()) {
                List<LoadResult> res = outcome.results(s.name(), r);
                md.append(' ').append(res.isEmpty() ? "-" : mb(Stats.of(res, LoadResult::bytesPerS).median())
                        + (disturbed(res) ? " *" : "")).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** p50, p99, p99.9 and fairness of every server at every ping-pong row, one line each. */
    private void tail(StringBuilder md, MatrixOutcome outcome) {
        boolean anyPingPong = options.rows().stream().anyMatch(Row::pingPong);
        if (!anyPingPong) {
            return;
        }
        md.append("## Tail latency and fairness, ping-pong rows\n\n");
        md.append("Latency: median of the runs, the worst run in parentheses. Every server of the table has a line; "
                + "`-` = not measured (skipped or failed, see above).\n\n");
        md.append("| # | sessions | threads | block | delay us | server | runs | p50 us | p99 us | p99.9 us "
                + "| msgs/session min | median | max | max/min | disturbed |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < options.rows().size(); i++) {
            Row r = options.rows().get(i);
            if (!r.pingPong()) {
                continue;
            }
            for (ServerDefinition s : options.servers()) {
                List<LoadResult> res = outcome.results(s.name(), r);
                md.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %d | %s |", i + 1, r.sessions(),
                        r.threads(), r.block(), r.delayUs(), s.name()));
                if (res.isEmpty()) {
                    md.append(" 0 | - | - | - | - | - | - | - | - |\n");
                    continue;
                }
                SessionFairness f = fairness(res);
                md.append(String.format(Locale.ROOT, " %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", res.size(),
                        latency(res, LoadResult::p50Us), latency(res, LoadResult::p99Us),
                        latency(res, LoadResult::p999Us), count(f.min()), count(f.median()), count(f.max()),
                        f.ratioCell(), disturbedCell(res)));
            }
        }
        md.append('\n');
    }

    private void row(StringBuilder md, int index, Row row, MatrixOutcome outcome) {
        boolean rowDisturbed = false;
        for (ServerDefinition s : options.servers()) {
            List<LoadResult> res = outcome.results(s.name(), row);
            rowDisturbed |= !res.isEmpty() && disturbed(res);
        }
        md.append("## Row ").append(index + 1).append(": ").append(row.describe())
                .append(rowDisturbed ? " - disturbed" : "").append("\n\n");
        md.append("| server | MB/s | spread | msgs/s | p50 us | p99 us | p99.9 us | msgs/session min | median | max "
                + "| max/min | client CPU % | server CPU % | server us/msg | other CPU % | runs |");
        for (String b : ServerCatalog.RATIO_BASELINES) {
            md.append(" x ").append(b).append(" |");
        }
        md.append("\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        md.append("---|".repeat(ServerCatalog.RATIO_BASELINES.size())).append('\n');
        boolean any = false;
        for (ServerDefinition s : options.servers()) {
            List<LoadResult> res = outcome.results(s.name(), row);
            if (res.isEmpty()) {
                continue;
            }
            any = true;
            Stats bytes = Stats.of(res, LoadResult::bytesPerS);
            double cpu = Stats.of(res, LoadResult::clientCpuPct).median();
            double serverCpu = Stats.of(res, LoadResult::serverCpuPct).median();
            double otherCpu = Stats.of(res, LoadResult::otherCpuPct).max();
            SessionFairness f = fairness(res);
            md.append(String.format(Locale.ROOT,
                    "| %s | %s | %s-%s | %.0f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %.0f%s | %s | %s | %s | %d |",
                    s.name(), mb(bytes.median()), mb(bytes.min()), mb(bytes.max()),
                    Stats.of(res, LoadResult::msgsPerS).median(),
                    Stats.of(res, LoadResult::p50Us).median(), Stats.of(res, LoadResult::p99Us).median(),
                    Stats.of(res, LoadResult::p999Us).median(), count(f.min()), count(f.median()), count(f.max()),
                    f.ratioCell(), cpu, clientBound(cpu, serverCpu) ? " !" : "",
                    percent(serverCpu), serverMicrosPerMsg(res),
                    percent(otherCpu) + (otherCpu >= OTHER_BUSY_PCT ? " !" : ""), bytes.count()));
            for (String b : ServerCatalog.RATIO_BASELINES) {
                List<LoadResult> base = outcome.results(b, row);
                md.append(' ').append(base.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f",
                        bytes.median() / Stats.of(base, LoadResult::bytesPerS).median())).append(" |");
            }
            md.append('\n');
        }
        if (!any) {
            md.append("| (no measurement) |||||||||||||||").append("|".repeat(ServerCatalog.RATIO_BASELINES.size()))
                    .append('\n');
        }
        md.append('\n');
    }

    /** Whether any of these runs was measured while other work ran. */
    private boolean disturbed(List<LoadResult> runs) {
        return options.disturbed() || runs.stream().anyMatch(LoadResult::otherWorkRan);
    }

    private String disturbedCell(List<LoadResult> runs) {
        if (options.disturbed()) {
            return "yes (declared)";
        }
        double worst = runs.stream().mapToDouble(LoadResult::otherCpuPct).filter(v -> !Double.isNaN(v)).max()
                .orElse(Double.NaN);
        return worst >= OTHER_BUSY_PCT ? String.format(Locale.ROOT, "yes (other CPU %.0f %%)", worst) : "no";
    }

    private static SessionFairness fairness(List<LoadResult> runs) {
        return SessionFairness.summarize(runs.stream().map(LoadResult::fairness).toList());
    }

    /** Median of the runs, and the worst run in parentheses when there are several. */
    static String latency(List<LoadResult> runs, ToDoubleFunction<LoadResult> field) {
        Stats s = Stats.of(runs, field);
        String median = String.format(Locale.ROOT, "%.1f", s.median());
        return s.count() > 1 ? median + String.format(Locale.ROOT, " (%.1f)", s.max()) : median;
    }

    private static String count(double v) {
        return Markdown.number(v, "%.0f", "-");
    }

    /** Median over the runs of the server's CPU time per echoed block, in microseconds, or "-" when unmeasured. */
    private static String serverMicrosPerMsg(List<LoadResult> res) {
        double v = Stats.of(res, r -> r.msgsPerS() > 0 ? r.serverCpuPct() / 100 * 1e6 / r.msgsPerS() : Double.NaN)
                .median();
        return Markdown.number(v, "%.2f", "-");
    }

    private static String percent(double v) {
        return Markdown.number(v, "%.0f", "-");
    }

    private static boolean clientBound(double clientCpu, double serverCpu) {
        return clientCpu >= CLIENT_BOUND_PCT && (Double.isNaN(serverCpu) || serverCpu < SERVER_BUSY_PCT);
    }

    private static String mb(double bytesPerS) {
        double v = bytesPerS / 1e6;
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String cell(String text) {
        return Markdown.cell(text);
    }
}
