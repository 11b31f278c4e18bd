package dev.proactor.bench.file;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The fio baseline rows: the same file, block size, pattern and depth with fio's {@code libaio} or
 * {@code io_uring} engine, one job, {@code --time_based}, JSON output. fio's {@code --ramp_time} plays the part of
 * the warm-up. Called by the launching thread only.
 */
final class FioRow {

    private final Path fio;
    private final Path file;
    private final long size;
    private final double warmup;
    private final double seconds;
    private final boolean direct;
    private final Path logDir;

    FioRow(Path fio, Path file, long size, double warmup, double seconds, boolean direct, Path logDir) {
        this.fio = fio;
        this.file = file;
        this.size = size;
        this.warmup = warmup;
        this.seconds = seconds;
        this.direct = direct;
        this.logDir = logDir;
    }

    /** Finds {@code fio}: a name on the PATH, or a path taken as is; empty when it is not there. */
    static Optional<Path> find(String nameOrPath) {
        if (nameOrPath.contains("/")) {
            Path p = Path.of(nameOrPath);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        String pathVar = System.getenv("PATH");
        if (pathVar == null) {
            return Optional.empty();
        }
        for (String dir : pathVar.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, nameOrPath);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** fio's command line for one row ({@code ioengine} is {@code libaio} or {@code io_uring}). */
    List<String> command(String ioengine, Workload workload, int depth) {
        List<String> cmd = new ArrayList<>();
        cmd.add(fio.toString());
        cmd.add("--name=file-bench");
        cmd.add("--filename=" + file);
        cmd.add("--size=" + size);
        cmd.add("--rw=" + workload.fioName());
        cmd.add("--bs=" + workload.blockSize());
        cmd.add("--ioengine=" + ioengine);
        cmd.add("--iodepth=" + depth);
        cmd.add("--direct=" + (direct ? 1 : 0));
        cmd.add("--numjobs=1");
        cmd.add("--time_based");
        cmd.add("--ramp_time=" + Math.max(0, Math.round(warmup)) + "s");
        cmd.add("--runtime=" + Math.max(1, Math.round(seconds)) + "s");
        cmd.add("--randrepeat=0");
        cmd.add("--norandommap");
        cmd.add("--invalidate=0");
        cmd.add("--output-format=json");
        return cmd;
    }

    /** Runs one fio row; a failure becomes a row with zero operations and the reason (output kept in the log). */
    RowResult run(String ioengine, Workload workload, int depth) throws IOException, InterruptedException {
        String row = "fio-" + ioengine;
        Path log = logDir.resolve(row + "-" + workload.fioName() + "-" + depth + ".json");
        Process p = new ProcessBuilder(command(ioengine, workload, depth)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        long limit = Math.round(warmup + seconds) + 120;
        if (!p.waitFor(limit, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return RowLauncher.failed(row, workload, depth, "fio did not finish within " + limit + " s");
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            return RowLauncher.failed(row, workload, depth, "fio exited with " + p.exitValue() + ", see " + log);
        }
        try {
            FioJson.FioRead r = FioJson.parseRead(out);
            return new RowResult(row, workload, depth, direct, r.ios(), r.bytes(), r.seconds(), r.p50Us(),
                    r.p99Us(), "fio " + ioengine + (direct ? ", --direct=1" : ", --direct=0"));
        } catch (IllegalArgumentException e) {
            return RowLauncher.failed(row, workload, depth, e.getMessage() + ", see " + log);
        }
    }
}
