package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a proactor or JDK row in a fresh JVM ({@link RowMain}) with the row's system properties, the way a user
 * selects an engine ({@code -Dproactor.engine=linux-aio}), plus {@code -Dproactor.strict=true} so an engine that
 * cannot load fails the row instead of silently measuring {@code nio}. Called by the launching thread only.
 */
final class RowLauncher {

    private final Path file;
    private final long size;
    private final double warmup;
    private final double seconds;
    private final DirectMode direct;
    private final int fileThreads;
    private final Path logDir;

    RowLauncher(Path file, long size, double warmup, double seconds, DirectMode direct, int fileThreads,
                Path logDir) {
        this.file = file;
        this.size = size;
        this.warmup = warmup;
        this.seconds = seconds;
        this.direct = direct;
        this.fileThreads = fileThreads;
        this.logDir = logDir;
    }

    /**
     * Runs one row and returns its result, or a result with zero operations and the reason as note when the child
     * failed (its output is kept in {@code logDir}).
     */
    RowResult run(String row, Workload workload, int depth) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Dproactor.strict=true");
        cmd.add("-Dproactor.fileThreads=" + fileThreads);
        String kind = "proactor";
        switch (row) {
            case "threadpool" -> cmd.add("-Dproactor.engine=nio");
            case "linux-aio" -> cmd.add("-Dproactor.engine=linux-aio");
            case "io_uring" -> cmd.add("-Dproactor.engine=io_uring");
            case "jdk-afc" -> kind = "jdk";
            default -> throw new IllegalArgumentException("not a JVM row: " + row);
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RowMain.class.getName());
        cmd.addAll(List.of(kind, file.toString(), Long.toString(size), workload.fioName(), Integer.toString(depth),
                Double.toString(warmup), Double.toString(seconds), direct.name(), Integer.toString(fileThreads)));
        Path log = logDir.resolve(row + "-" + workload.fioName() + "-" + depth + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long limit = (long) (warmup + seconds) + 120;
        if (!p.waitFor(limit, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return failed(row, workload, depth, "did not finish within " + limit + " s, see " + log);
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (String line : lines) {
            if (line.startsWith(RowMain.RESULT + " ")) {
                return parse(row, workload, depth, line);
            }
        }
        String last = lines.stream().filter(l -> l.startsWith("file-bench row failed")).findFirst()
                .orElse("exit status " + p.exitValue());
        return failed(row, workload, depth, "failed (" + last + "), see " + log);
    }

    static RowResult parse(String row, Workload workload, int depth, String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 9) {
            throw new IllegalArgumentException("malformed result line: " + line);
        }
        boolean direct = Boolean.parseBoolean(f[6]);
        String note = "engine " + f[7] + (direct ? ", O_DIRECT" : ", buffered (page cache)");
        return new RowResult(row, workload, depth, direct, Long.parseLong(f[1]), Long.parseLong(f[2]),
                Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]), note);
    }

    static RowResult failed(String row, Workload workload, int depth, String note) {
        return new RowResult(row, workload, depth, false, 0, 0, 0, 0, 0, note);
    }
}
