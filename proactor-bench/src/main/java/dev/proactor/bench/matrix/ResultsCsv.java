package dev.proactor.bench.matrix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** {@code results.csv}, appended after every run so a crash keeps what was measured. */
public final class ResultsCsv {
    /** The header, exactly. */
    public static final String HEADER = "server,sessions,threads,block,window,delay_us,run,"
            + "bytes_per_s,msgs_per_s,p50_us,p99_us,p999_us,client_cpu_pct";

    private final Path file;

    /**
     * Creates the file with its header.
     *
     * @param file path of results.csv
     * @throws IOException when it cannot be written
     */
    public ResultsCsv(Path file) throws IOException {
        this.file = file;
        Files.writeString(file, HEADER + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Appends one measurement.
     *
     * @param r the record
     * @throws IOException when it cannot be written
     */
    public void append(RunRecord r) throws IOException {
        Row row = r.row();
        LoadResult x = r.result();
        String line = String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%.2f,%.2f,%.2f,%.1f%n",
                r.server(), row.sessions(), row.threads(), row.block(), row.window(), row.delayUs(), r.run(),
                x.bytesPerS(), x.msgsPerS(), x.p50Us(), x.p99Us(), x.p999Us(), x.clientCpuPct());
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
