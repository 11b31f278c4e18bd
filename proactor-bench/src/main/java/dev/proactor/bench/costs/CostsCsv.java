package dev.proactor.bench.costs;

import dev.proactor.bench.harness.Markdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code results.csv}: one line per run, appended as the runs complete. Per-message measures; an unknown value
 * (event not counted, no enters) is an empty field; {@code ctx_by_thread} is {@code group=value} pairs joined
 * by {@code ;}.
 */
public final class CostsCsv {
    private final Path file;

    /**
     * Creates the file with its header.
     *
     * @param file the file (replaced)
     * @throws IOException when it cannot be written
     */
    public CostsCsv(Path file) throws IOException {
        this.file = file;
        Files.writeString(file, header() + "\n", StandardCharsets.UTF_8);
    }

    /**
     * The header line.
     *
     * @return the column names
     */
    static String header() {
        List<String> cols = new ArrayList<>(List.of("round", "sessions", "block", "window", "mode", "server",
                "offered_msgs_per_s", "msgs_per_s", "saturated", "messages", "cpu_ns_per_msg", "user_cpu_ns_per_msg",
                "syscalls_per_msg", "ctx_switches_per_msg", "enters_per_msg", "sqes_per_enter", "server_cpu_pct",
                "server_user_cpu_pct", "other_user_cpu_pct", "p50_us", "p99_us"));
        for (String kind : PerfEvents.SYSCALL_KINDS) {
            cols.add(kind + "_per_msg");
        }
        cols.add("ctx_by_thread");
        return String.join(",", cols);
    }

    /**
     * One run's line.
     *
     * @param r the run
     * @return the CSV line (no newline)
     */
    static String line(CostsRecord r) {
        RunCosts c = r.costs();
        List<String> f = new ArrayList<>(List.of(Integer.toString(r.round()), Integer.toString(r.row().sessions()),
                Integer.toString(r.row().block()), Integer.toString(r.row().window()), r.mode().label(), r.server(),
                num(r.offered(), "%.0f"), num(r.load().msgsPerS(), "%.0f"), Boolean.toString(r.saturated()),
                num(c.messages(), "%.0f"), num(c.cpuNsPerMsg(), "%.1f"), num(r.userCpuNsPerMsg(), "%.1f"),
                num(c.syscallsPerMsg(), "%.4f"), num(c.ctxPerMsg(), "%.4f"), num(c.entersPerMsg(), "%.4f"),
                num(c.sqesPerEnter(), "%.3f"), num(r.load().serverCpuPct(), "%.1f"),
                num(r.load().serverUserCpuPct(), "%.1f"), num(r.load().otherCpuPct(), "%.1f"),
                num(r.load().p50Us(), "%.2f"), num(r.load().p99Us(), "%.2f")));
        for (String kind : PerfEvents.SYSCALL_KINDS) {
            f.add(num(c.syscallsByKind().getOrDefault(kind, Double.NaN), "%.4f"));
        }
        List<String> ctx = new ArrayList<>();
        for (Map.Entry<String, Double> e : c.ctxByThread().entrySet()) {
            ctx.add(e.getKey().replaceAll("[,;=\"\\s]", "_") + "=" + num(e.getValue(), "%.4f"));
        }
        f.add(String.join(";", ctx));
        return String.join(",", f);
    }

    private static String num(double v, String format) {
        return Double.isInfinite(v) ? "" : Markdown.number(v, format, "");
    }

    /**
     * Appends a run.
     *
     * @param r the run
     * @throws IOException when it cannot be written
     */
    public void append(CostsRecord r) throws IOException {
        Files.writeString(file, line(r) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
