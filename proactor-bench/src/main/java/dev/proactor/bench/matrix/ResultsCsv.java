package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Markdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * {@code results.csv}, appended after every run so a crash keeps what was measured. Unknown
 * values (no server CPU, a load generator without fairness fields) are empty cells;
 * {@code session_msgs_max_over_min} is {@code inf} when a session completed nothing;
 * {@code disturbed} is 1 when other work ran (declared with {@code --disturbed}, or other
 * processes used {@value LoadResult#OTHER_BUSY_PCT} % CPU or more during the run).
 */
public final class ResultsCsv {
    /** The header, exactly. */
    public static final String HEADER = "server,sessions,threads,block,window,delay_us,run,"
            + "bytes_per_s,msgs_per_s,p50_us,p99_us,p999_us,client_cpu_pct,"
            + "server_cpu_pct,other_cpu_pct,session_msgs_min,session_msgs_median,session_msgs_max,"
            + "session_msgs_max_over_min,idle_sessions,disturbed";

    private final Path file;
    private final boolean declaredDisturbed;

    /**
     * Creates the file with its header.
     *
     * @param file              path of results.csv
     * @param declaredDisturbed the operator said other work ran ({@code --disturbed}): every run is flagged
     * @throws IOException when it cannot be written
     */
    public ResultsCsv(Path file, boolean declaredDisturbed) throws IOException {
        this.file = file;
        this.declaredDisturbed = declaredDisturbed;
        Files.writeString(file, HEADER + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Appends one measurement.
     *
     * @param r the record
     * @throws IOException when it cannot be written
     */
    public void append(RunRecord r) throws IOException {
        Files.writeString(file, line(r, declaredDisturbed) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /**
     * One CSV line, without the line break.
     *
     * @param r                 the record
     * @param declaredDisturbed whether other work was declared for the whole run
     * @return the line
     */
    static String line(RunRecord r, boolean declaredDisturbed) {
        Row row = r.row();
        LoadResult x = r.result();
        SessionFairness f = x.fairness();
        String head = String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%.2f,%.2f,%.2f,%.1f",
                r.server(), row.sessions(), row.threads(), row.block(), row.window(), row.delayUs(), r.run(),
                x.bytesPerS(), x.msgsPerS(), x.p50Us(), x.p99Us(), x.p999Us(), x.clientCpuPct());
        return String.join(",", head, number(x.serverCpuPct(), "%.1f"), number(x.otherCpuPct(), "%.1f"),
                number(f.min(), "%.0f"), number(f.median(), "%.1f"), number(f.max(), "%.0f"),
                ratio(f), f.known() ? Integer.toString(f.idle()) : "",
                declaredDisturbed || x.otherWorkRan() ? "1" : "0");
    }

    private static String ratio(SessionFairness f) {
        if (!f.known()) {
            return "";
        }
        return Double.isInfinite(f.maxOverMin()) ? "inf" : number(f.maxOverMin(), "%.3f");
    }

    private static String number(double v, String format) {
        return Markdown.number(v, format, "");
    }
}
