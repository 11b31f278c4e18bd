package dev.proactor.bench.matrix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code results.md}: the context of the run, skipped servers and failures, an overview of
 * median throughput, then per row the median per server with its min-max spread and the
 * ratios to netty-nio, netty-epoll and jdk-nio2 measured in the same run.
 */
public final class ResultsMarkdown {
    /** Client CPU share from which the load generator may be the limit. */
    static final double CLIENT_BOUND_PCT = 80;
    /** Server CPU share from which the server counts as saturated. */
    static final double SERVER_BUSY_PCT = 90;
    /** User CPU of other processes from which a run counts as disturbed. */
    static final double OTHER_BUSY_PCT = 10;

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
        StringBuilder md = new StringBuilder();
        md.append("# Echo benchmark matrix\n\n");
        if (charts == null) {
            md.append("**In progress** - this file is rewritten after every row.\n\n");
        }
        for (String line : context) {
            md.append("- ").append(line).append('\n');
        }
        md.append('\n');
        md.append("Throughput is echoed payload per second (MB = 10^6 bytes), msgs = echoed blocks. Latency is per block, "
                + "from its write to the last byte of its echo (ping-pong: every round trip). Values are medians of "
                + "the runs, spread is min-max of throughput. Ratios divide medians measured in this same run. On this "
                + "machine repetitions differ by up to +-40 %: a difference under 20 % is noise unless repeated runs agree. "
                + "Server CPU is the server process over the same interval (100 = its one pinned core busy). "
                + "! marks a client CPU of " + (int) CLIENT_BOUND_PCT + " % or more while the server stayed below "
                + (int) SERVER_BUSY_PCT + " %: there the load generator, not the server, is probably the limit. "
                + "Other CPU is the user time of every other process on the machine during the measurement (the worst "
                + "run); ! from " + (int) OTHER_BUSY_PCT + " % on: something else competed for the cores.\n\n");
        skipped(md, outcome.skipped());
        failures(md, outcome.failures());
        overview(md, outcome);
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
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
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
        if (failures.isEmpty()) {
            return;
        }
        md.append("## Failed runs\n\n");
        for (String f : failures) {
            md.append("- ").append(f).append('\n');
        }
        md.append('\n');
    }

    private void overview(StringBuilder md, MatrixOutcome outcome) {
        md.append("## Overview: median MB/s\n\n| # | sessions | threads | block | window | delay us |");
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
                md.append(' ').append(res.isEmpty() ? "-" : mb(Stats.of(res, LoadResult::bytesPerS).median()))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void row(StringBuilder md, int index, Row row, MatrixOutcome outcome) {
        md.append("## Row ").append(index + 1).append(": ").append(row.describe()).append("\n\n");
        md.append("| server | MB/s | spread | msgs/s | p50 us | p99 us | p99.9 us | client CPU % | server CPU % "
                + "| other CPU % | runs |");
        for (String b : ServerCatalog.RATIO_BASELINES) {
            md.append(" x ").append(b).append(" |");
        }
        md.append("\n|---|---|---|---|---|---|---|---|---|---|---|");
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
            md.append(String.format(Locale.ROOT, "| %s | %s | %s-%s | %.0f | %.1f | %.1f | %.1f | %.0f%s | %s | %s | %d |",
                    s.name(), mb(bytes.median()), mb(bytes.min()), mb(bytes.max()),
                    Stats.of(res, LoadResult::msgsPerS).median(),
                    Stats.of(res, LoadResult::p50Us).median(), Stats.of(res, LoadResult::p99Us).median(),
                    Stats.of(res, LoadResult::p999Us).median(), cpu, clientBound(cpu, serverCpu) ? " !" : "",
                    percent(serverCpu), percent(otherCpu) + (otherCpu >= OTHER_BUSY_PCT ? " !" : ""), bytes.count()));
            for (String b : ServerCatalog.RATIO_BASELINES) {
                List<LoadResult> base = outcome.results(b, row);
                md.append(' ').append(base.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f",
                        bytes.median() / Stats.of(base, LoadResult::bytesPerS).median())).append(" |");
            }
            md.append('\n');
        }
        if (!any) {
            md.append("| (no measurement) |||||||||||").append("|".repeat(ServerCatalog.RATIO_BASELINES.size())).append('\n');
        }
        md.append('\n');
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static boolean clientBound(double clientCpu, double serverCpu) {
        return clientCpu >= CLIENT_BOUND_PCT && (Double.isNaN(serverCpu) || serverCpu < SERVER_BUSY_PCT);
    }

    private static String mb(double bytesPerS) {
        double v = bytesPerS / 1e6;
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
