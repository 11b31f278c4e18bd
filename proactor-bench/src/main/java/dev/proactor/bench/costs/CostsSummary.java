package dev.proactor.bench.costs;

import dev.proactor.bench.harness.Markdown;
import dev.proactor.bench.harness.Stats;
import dev.proactor.bench.matrix.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * {@code summary.md}: per row and mode, each server's median with its spread (min-max) over the rounds, the ratio
 * columns of the three pairs compared (those whose both servers ran), the system calls by kind and the context
 * switches by thread; at the top the command line that reproduces it, the headline table (CPU per message at the
 * fixed rate) and the pairs' ratios by round.
 */
public final class CostsSummary {
    /** The pairs compared: numerator, denominator. */
    static final List<List<String>> PAIRS = List.of(List.of("proactor-io_uring", "netty-io_uring"),
            List.of("proactor-epoll", "netty-epoll"), List.of("proactor-nio-epoll", "tp-reactor"));

    private static final String UNKNOWN = "-";
    /** Context switches per message below which a thread group is left out of the by-thread table. */
    private static final double SHOWN_CTX = 0.0005;

    private final List<String> context;
    private final List<Row> rows;
    private final List<String> servers;
    private final List<String> missingEvents;
    private final List<List<String>> pairs = new ArrayList<>();

    /**
     * Creates the writer.
     *
     * @param context       context lines, the first the command that reproduces the run
     * @param rows          the rows
     * @param servers       server names in round 1's order
     * @param missingEvents perf events skipped because this kernel lacks them
     */
    public CostsSummary(List<String> context, List<Row> rows, List<String> servers, List<String> missingEvents) {
        this.context = List.copyOf(context);
        this.rows = List.copyOf(rows);
        this.servers = List.copyOf(servers);
        this.missingEvents = List.copyOf(missingEvents);
        for (List<String> p : PAIRS) {
            if (servers.containsAll(p)) {
                this.pairs.add(p);
            }
        }
    }

    /**
     * Writes the summary.
     *
     * @param file    the file (replaced)
     * @param outcome the runs so far
     * @throws IOException when it cannot be written
     */
    public void write(Path file, CostsOutcome outcome) throws IOException {
        Files.writeString(file, render(outcome), StandardCharsets.UTF_8);
    }

    /**
     * The summary's text.
     *
     * @param outcome the runs so far
     * @return Markdown
     */
    public String render(CostsOutcome outcome) {
        StringBuilder md = new StringBuilder("# Counted costs per echoed message\n\n");
        Markdown.bullets(md, context);
        List<String> rates = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            OptionalLong r = outcome.rateOf(i);
            rates.add("sessions=" + rows.get(i).sessions() + ": " + (r.isPresent() ? r.getAsLong() + " msgs/s"
                    : "none (no saturation run of round 1 succeeded)"));
        }
        md.append("- fixed rates: ").append(String.join("; ", rates)).append('\n');
        if (!missingEvents.isEmpty()) {
            md.append("- perf events this kernel lacks (their columns are empty): ")
                    .append(String.join(", ", missingEvents)).append('\n');
        }
        md.append("- each cell: median (min-max) over the rounds; per message = per echoed ")
                .append(rows.isEmpty() ? "block" : rows.get(0).blockText() + " block").append("; CPU = the "
                + "server's task-clock (every thread, user + kernel) per message in ns; a fixed-rate run that achieved "
                + "less than 97 % of the offered rate, or more than 103 % (catching up after falling behind), is "
                + "counted under `saturated`; a run during which other processes took "
                + "10 % of a core or more in user time (the load generator's other_user_cpu_pct) under `disturbed`: "
                + "rerun those on a quiet machine\n\n");
        headline(md, outcome);
        for (int i = 0; i < rows.size(); i++) {
            for (Mode mode : new Mode[] {Mode.FIXED, Mode.SATURATION}) {
                section(md, outcome, i, mode);
            }
        }
        Markdown.section(md, "Failed runs", outcome.failures());
        List<String> skips = new ArrayList<>();
        outcome.skipped().forEach((s, why) -> skips.add(s + ": " + why));
        Markdown.section(md, "Skipped servers", skips);
        return md.toString();
    }

    /** CPU per message of a run that held its rate, NaN (left out of medians) for one that did not. */
    private static final ToDoubleFunction<CostsRecord> HELD_CPU =
            r -> r.saturated() ? Double.NaN : r.costs().cpuNsPerMsg();

    private void headline(StringBuilder md, CostsOutcome outcome) {
        md.append("## Headline: CPU per message at the fixed rate (ns, median over the rounds that held the rate: runs"
                + " outside 97-103 % of it are left out, - when none held it)\n\n| sessions | rate |");
        servers.forEach(s -> md.append(' ').append(s).append(" |"));
        pairs.forEach(p -> md.append(' ').append(p.get(0)).append(" / ").append(p.get(1)).append(" |"));
        md.append('\n').append("|---|---|");
        md.append("---:|".repeat(servers.size() + pairs.size())).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            OptionalLong rate = outcome.rateOf(i);
            md.append("| ").append(rows.get(i).sessions()).append(" | ")
                    .append(rate.isPresent() ? Long.toString(rate.getAsLong()) : UNKNOWN).append(" |");
            for (String s : servers) {
                md.append(' ').append(Markdown.number(median(runs(outcome, i, Mode.FIXED, s), HELD_CPU), "%.0f",
                        UNKNOWN)).append(" |");
            }
            for (List<String> p : pairs) {
                md.append(' ').append(ratio(outcome, i, Mode.FIXED, p, HELD_CPU)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        pairedRatios(md, outcome);
    }

    /**
     * The headline's ratios again, paired by round: each round's ratio of the two servers' CPU per message (their
     * runs are minutes apart at most, where the medians of two servers can come from rounds far apart on a machine
     * whose speed drifts), median and range over the rounds where both held the rate.
     */
    private void pairedRatios(StringBuilder md, CostsOutcome outcome) {
        if (pairs.isEmpty()) {
            return;
        }
        md.append("## Per-round ratios of CPU per message at the fixed rate (median (min-max) over the rounds in which"
                + " both servers held the rate)\n\n| sessions |");
        pairs.forEach(p -> md.append(' ').append(p.get(0)).append(" / ").append(p.get(1)).append(" |"));
        md.append("\n|---|").append("---:|".repeat(pairs.size())).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            md.append("| ").append(rows.get(i).sessions()).append(" |");
            for (List<String> p : pairs) {
                md.append(' ').append(pairedRatio(outcome, i, p)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static String pairedRatio(CostsOutcome outcome, int rowIndex, List<String> pair) {
        List<CostsRecord> first = runs(outcome, rowIndex, Mode.FIXED, pair.get(0));
        List<CostsRecord> second = runs(outcome, rowIndex, Mode.FIXED, pair.get(1));
        List<Double> ratios = new ArrayList<>();
        int rounds = 0;
        for (CostsRecord a : first) {
            for (CostsRecord b : second) {
                if (a.round() != b.round()) {
                    continue;
                }
                rounds++;
                double x = HELD_CPU.applyAsDouble(a);
                double y = HELD_CPU.applyAsDouble(b);
                if (!Double.isNaN(x) && y > 0) {
                    ratios.add(x / y);
                }
            }
        }
        if (ratios.isEmpty()) {
            return UNKNOWN;
        }
        Stats st = Stats.of(ratios, Double::doubleValue);
        return Markdown.number(st.median(), "%.2f", UNKNOWN) + " (" + Markdown.number(st.min(), "%.2f", UNKNOWN)
                + "-" + Markdown.number(st.max(), "%.2f", UNKNOWN) + "), " + ratios.size() + " of " + rounds
                + " rounds";
    }

    private void section(StringBuilder md, CostsOutcome outcome, int rowIndex, Mode mode) {
        Row row = rows.get(rowIndex);
        OptionalLong rate = outcome.rateOf(rowIndex);
        md.append("## sessions=").append(row.sessions()).append(", ")
                .append(mode == Mode.FIXED ? "fixed rate " + (rate.isPresent() ? rate.getAsLong() + " msgs/s"
                        : "(none)") : "saturation (unpaced)").append("\n\n");
        md.append("| server | runs | CPU ns/msg | user-mode ns/msg | syscalls/msg | ctx switches/msg | enters/msg "
                + "| SQEs/enter | msgs/s | saturated | disturbed |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String s : servers) {
            List<CostsRecord> runs = runs(outcome, rowIndex, mode, s);
            if (runs.isEmpty()) {
                continue;
            }
            long saturated = runs.stream().filter(CostsRecord::saturated).count();
            long disturbed = runs.stream().filter(r -> r.load().otherWorkRan()).count();
            md.append("| ").append(s).append(" | ").append(runs.size())
                    .append(" | ").append(spread(runs, r -> r.costs().cpuNsPerMsg(), "%.0f"))
                    .append(" | ").append(spread(runs, CostsRecord::userCpuNsPerMsg, "%.0f"))
                    .append(" | ").append(spread(runs, r -> r.costs().syscallsPerMsg(), "%.3f"))
                    .append(" | ").append(spread(runs, r -> r.costs().ctxPerMsg(), "%.3f"))
                    .append(" | ").append(spread(runs, r -> r.costs().entersPerMsg(), "%.3f"))
                    .append(" | ").append(spread(runs, r -> r.costs().sqesPerEnter(), "%.2f"))
                    .append(" | ").append(spread(runs, r -> r.load().msgsPerS(), "%.0f"))
                    .append(" | ").append(mode == Mode.FIXED ? saturated + "/" + runs.size() : UNKNOWN)
                    .append(" | ").append(disturbed).append('/').append(runs.size())
                    .append(" |\n");
        }
        if (!pairs.isEmpty()) {
            md.append("\n| ratio of medians | CPU/msg | user-mode CPU/msg | syscalls/msg | ctx switches/msg "
                    + "| enters/msg | msgs/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
        }
        for (List<String> p : pairs) {
            md.append("| ").append(p.get(0)).append(" / ").append(p.get(1))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, r -> r.costs().cpuNsPerMsg()))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, CostsRecord::userCpuNsPerMsg))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, r -> r.costs().syscallsPerMsg()))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, r -> r.costs().ctxPerMsg()))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, r -> r.costs().entersPerMsg()))
                    .append(" | ").append(ratio(outcome, rowIndex, mode, p, r -> r.load().msgsPerS()))
                    .append(" |\n");
        }
        kinds(md, outcome, rowIndex, mode);
        threads(md, outcome, rowIndex, mode);
    }

    /** System calls by kind: only the kinds some server made. */
    private void kinds(StringBuilder md, CostsOutcome outcome, int rowIndex, Mode mode) {
        List<String> used = new ArrayList<>();
        for (String kind : PerfEvents.SYSCALL_KINDS) {
            for (String s : servers) {
                double m = median(runs(outcome, rowIndex, mode, s), r -> kind(r, kind));
                if (!Double.isNaN(m) && m > 0) {
                    used.add(kind);
                    break;
                }
            }
        }
        if (used.isEmpty()) {
            md.append('\n');
            return;
        }
        md.append("\nSystem calls per message by kind (median):\n\n| server |");
        used.forEach(k -> md.append(' ').append(k).append(" |"));
        md.append("\n|---|").append("---:|".repeat(used.size())).append('\n');
        for (String s : servers) {
            List<CostsRecord> runs = runs(outcome, rowIndex, mode, s);
            if (runs.isEmpty()) {
                continue;
            }
            md.append("| ").append(s).append(" |");
            for (String k : used) {
                md.append(' ').append(Markdown.number(median(runs, r -> kind(r, k)), "%.3f", UNKNOWN)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static double kind(CostsRecord r, String kind) {
        return r.costs().syscallsByKind().getOrDefault(kind, Double.NaN);
    }

    /** Context switches by thread group: each server's groups, largest first. */
    private void threads(StringBuilder md, CostsOutcome outcome, int rowIndex, Mode mode) {
        md.append("Context switches per message by thread (median; thread names without digits; groups below "
                + "0.001 left out):\n\n"
                + "| server | by thread |\n|---|---|\n");
        for (String s : servers) {
            List<CostsRecord> runs = runs(outcome, rowIndex, mode, s);
            if (runs.isEmpty()) {
                continue;
            }
            Set<String> groups = new LinkedHashSet<>();
            runs.forEach(r -> groups.addAll(r.costs().ctxByThread().keySet()));
            List<Map.Entry<String, Double>> medians = new ArrayList<>();
            for (String g : groups) {
                medians.add(Map.entry(g, median(runs, r -> r.costs().ctxByThread().getOrDefault(g, 0.0))));
            }
            medians.sort(Map.Entry.<String, Double>comparingByValue().reversed());
            List<String> cells = new ArrayList<>();
            for (Map.Entry<String, Double> e : medians) {
                if (e.getValue() >= SHOWN_CTX) {
                    cells.add(Markdown.cell(e.getKey()) + " " + Markdown.number(e.getValue(), "%.3f", UNKNOWN));
                }
            }
            md.append("| ").append(s).append(" | ").append(cells.isEmpty() ? UNKNOWN : String.join(", ", cells))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static List<CostsRecord> runs(CostsOutcome outcome, int rowIndex, Mode mode, String server) {
        return outcome.records().stream()
                .filter(r -> r.rowIndex() == rowIndex && r.mode() == mode && r.server().equals(server)).toList();
    }

    /** The median of the known values, NaN when none is known. */
    static double median(List<CostsRecord> runs, ToDoubleFunction<CostsRecord> field) {
        List<CostsRecord> known = runs.stream().filter(r -> !Double.isNaN(field.applyAsDouble(r))).toList();
        return known.isEmpty() ? Double.NaN : Stats.of(known, field).median();
    }

    /** {@code median (min-max)} of the known values, {@code -} when none is known. */
    static String spread(List<CostsRecord> runs, ToDoubleFunction<CostsRecord> field, String format) {
        List<CostsRecord> known = runs.stream().filter(r -> !Double.isNaN(field.applyAsDouble(r))).toList();
        if (known.isEmpty()) {
            return UNKNOWN;
        }
        Stats st = Stats.of(known, field);
        return Markdown.number(st.median(), format, UNKNOWN) + " (" + Markdown.number(st.min(), format, UNKNOWN)
                + "-" + Markdown.number(st.max(), format, UNKNOWN) + ")";
    }

    private static String ratio(CostsOutcome outcome, int rowIndex, Mode mode, List<String> pair,
                                ToDoubleFunction<CostsRecord> field) {
        double a = median(runs(outcome, rowIndex, mode, pair.get(0)), field);
        double b = median(runs(outcome, rowIndex, mode, pair.get(1)), field);
        return b > 0 && !Double.isNaN(a) ? Markdown.number(a / b, "%.2f", UNKNOWN) : UNKNOWN;
    }
}
