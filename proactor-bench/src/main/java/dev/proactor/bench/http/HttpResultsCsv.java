package dev.proactor.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** {@code http-results.csv}, appended after every run so a crash keeps what was measured. */
public final class HttpResultsCsv {
    /** The header, exactly. */
    public static final String HEADER = "server,size,size_bytes,run,requests_per_s,transfer_bytes_per_s,"
            + "p50_us,p99_us,max_us,requests,non_2xx_3xx,socket_errors,server_cpu_pct,client_cpu_pct,other_cpu_pct";

    private final Path file;

    /**
     * Creates the file with its header.
     *
     * @param file path of http-results.csv
     * @throws IOException when it cannot be written
     */
    public HttpResultsCsv(Path file) throws IOException {
        this.file = file;
        Files.writeString(file, HEADER + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Appends one measurement.
     *
     * @param r the record
     * @throws IOException when it cannot be written
     */
    public void append(HttpRecord r) throws IOException {
        WrkResult x = r.result();
        String line = String.format(Locale.ROOT, "%s,%s,%d,%d,%.2f,%.0f,%.1f,%.1f,%.1f,%d,%d,%d,%.1f,%.1f,%.1f%n",
                r.server(), r.size().label(), r.size().bytes(), r.run(), x.requestsPerS(), x.transferBytesPerS(),
                x.p50Us(), x.p99Us(), x.maxUs(), x.requests(), x.non2xx3xx(), x.socketErrors(), r.serverCpuPct(),
                r.clientCpuPct(), r.otherCpuPct());
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
