package dev.proactor.bench.file;

import dev.proactor.bench.harness.Markdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes the rows as {@code file-bench.md} (a markdown table) and {@code file-bench.csv}, each row with its IOPS
 * ratio to the {@code threadpool} row, to the fio row of the same engine (linux-aio to fio-libaio, io_uring to
 * fio-io_uring) and, for the rows of the JDK's channel types on ours, to the JDK's row ({@code vt-fc-jdk},
 * {@code nio2-afc-jdk}), all of the same workload and depth, and the peak OS threads of the row's JVM. A ratio is empty where either side is missing or failed,
 * and the fio ratio also where only one of the two used {@code O_DIRECT}.
 */
final class FileBenchReport {

    private final List<RowResult> rows;

    FileBenchReport(List<RowResult> rows) {
        this.rows = List.copyOf(rows);
    }

    /**
     * IOPS of a row of the JDK's channel types on ours over the JDK's row of the same workload, depth and
     * {@code O_DIRECT} mode ({@code vt-fc-*} over {@code vt-fc-jdk}, {@code nio2-afc-*} over {@code nio2-afc-jdk}),
     * or NaN.
     */
    double vsJdk(RowResult r) {
        String other = RowResult.jdkCounterpart(r.row());
        return other == null ? Double.NaN : ratio(r, other, true);
    }

    /** IOPS of this row over the thread-pool row's, or NaN. */
    double vsThreadPool(RowResult r) {
        return ratio(r, "threadpool");
    }

    /**
     * IOPS of this row over its fio counterpart's, or NaN; also NaN when one read with {@code O_DIRECT} and the
     * other through the page cache, which measure different things.
     */
    double vsFio(RowResult r) {
        String other = RowResult.fioCounterpart(r.row());
        return other == null ? Double.NaN : ratio(r, other, true);
    }

    private double ratio(RowResult r, String otherRow) {
        return ratio(r, otherRow, false);
    }

    private double ratio(RowResult r, String otherRow, boolean sameDirect) {
        for (RowResult o : rows) {
            if (o.row().equals(otherRow) && o.workload() == r.workload() && o.depth() == r.depth()
                    && (!sameDirect || o.direct() == r.direct())) {
                return o.ops() > 0 && r.ops() > 0 ? r.iops() / o.iops() : Double.NaN;
            }
        }
        return Double.NaN;
    }

    /** The markdown table, header included. */
    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| row | workload | depth | O_DIRECT | IOPS | MiB/s | p50 µs | p99 µs | vs threadpool | vs fio | vs jdk"
                + " | OS threads (peak) | note |\n");
        sb.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RowResult r : rows) {
            boolean ok = r.ops() > 0;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.row(), r.workload().fioName(), r.depth(), ok ? (r.direct() ? "yes" : "no") : "",
                    ok ? String.format(Locale.ROOT, "%.0f", r.iops()) : "—",
                    ok ? String.format(Locale.ROOT, "%.1f", r.mibPerSecond()) : "—",
                    ok ? String.format(Locale.ROOT, "%.1f", r.p50Us()) : "—",
                    ok ? String.format(Locale.ROOT, "%.1f", r.p99Us()) : "—",
                    ratioText(vsThreadPool(r)), ratioText(vsFio(r)), ratioText(vsJdk(r)), threadsText(r),
                    r.note().replace("|", "\\|")));
        }
        return sb.toString();
    }

    /** The CSV document, header included; empty fields for missing values. */
    String csv() {
        StringBuilder sb = new StringBuilder(
                "row,workload,block_bytes,depth,direct,ops,bytes,seconds,iops,mib_per_s,p50_us,p99_us,"
                        + "vs_threadpool,vs_fio,vs_jdk,peak_threads,peak_io_workers,note\n");
        for (RowResult r : rows) {
            sb.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%b,%d,%d,%.3f,%.1f,%.2f,%.1f,%.1f,%s,%s,%s,%d,%d,"
                            + "\"%s\"%n",
                    r.row(), r.workload().fioName(), r.workload().blockSize(), r.depth(), r.direct(), r.ops(),
                    r.bytes(), r.seconds(), r.iops(), r.mibPerSecond(), r.p50Us(), r.p99Us(),
                    csvRatio(vsThreadPool(r)), csvRatio(vsFio(r)), csvRatio(vsJdk(r)), r.peakThreads(),
                    r.peakIoWorkers(), r.note().replace("\"", "\"\"")));
        }
        return sb.toString();
    }

    /** Writes both files into {@code dir}, creating it. */
    void write(Path dir, String preamble) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("file-bench.md"), preamble + "\n" + markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("file-bench.csv"), csv(), StandardCharsets.UTF_8);
    }

    /** Peak OS threads, with the io_uring kernel workers among them when there were any; empty if unmeasured. */
    private static String threadsText(RowResult r) {
        if (r.peakThreads() == 0) {
            return "";
        }
        return r.peakIoWorkers() == 0 ? Integer.toString(r.peakThreads())
                : r.peakThreads() + " (" + r.peakIoWorkers() + " iou-wrk)";
    }

    private static String ratioText(double r) {
        return Markdown.number(r, "%.2fx", "");
    }

    private static String csvRatio(double r) {
        return Markdown.number(r, "%.3f", "");
    }
}
