package dev.proactor.bench.file;

import dev.proactor.bench.harness.OptionChecks;
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
 * cannot load fails the row instead of silently measuring {@code nio}. The virtual-thread rows ({@code vt-fc-*})
 * run on the JDK 21+ given as {@code vtJava}, the others on this JVM's java. Called by the launching thread only.
 */
final class RowLauncher {

    private final Path file;
    private final long size;
    private final double warmup;
    private final double seconds;
    private final DirectMode direct;
    private final int fileThreads;
    private final Path logDir;
    /** The java executable of the virtual-thread rows (a JDK 21+), or null when there is none. */
    private final Path vtJava;
    /** {@code proactor.fileLanes} for the rows of the JDK's channel types on ours, or 0 for the default. */
    private final int fileLanes;

    RowLauncher(Path file, long size, double warmup, double seconds, DirectMode direct, int fileThreads,
                Path logDir) {
        this(file, size, warmup, seconds, direct, fileThreads, logDir, null, 0);
    }

    RowLauncher(Path file, long size, double warmup, double seconds, DirectMode direct, int fileThreads,
                Path logDir, Path vtJava, int fileLanes) {
        this.file = file;
        this.size = size;
        this.warmup = warmup;
        this.seconds = seconds;
        this.direct = direct;
        this.fileThreads = fileThreads;
        this.logDir = logDir;
        this.vtJava = vtJava;
        this.fileLanes = fileLanes;
    }

    /**
     * Runs one row and returns its result, or a result with zero operations and the reason as note when the child
     * failed (its output is kept in {@code logDir}).
     */
    RowResult run(String row, Workload workload, int depth) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        boolean virtual = row.startsWith("vt-fc-");
        if (virtual && vtJava == null) {
            return failed(row, workload, depth, "skipped: virtual threads need a JDK 21+ (pass --vt-java)");
        }
        cmd.add(virtual ? vtJava.toString() : OptionChecks.javaOrThis(null));
        cmd.add("--enable-native-access=ALL-UNNAMED"); // the JNI library's System.load warns on JDK 24+ without it
        cmd.add("-Dproactor.strict=true");
        cmd.add("-Dproactor.fileThreads=" + fileThreads);
        if (fileLanes > 0) {
            cmd.add("-Dproactor.fileLanes=" + fileLanes);
        }
        String kind = "proactor";
        String engine = row.startsWith("vt-fc-") ? row.substring(6)
                : row.startsWith("nio2-afc-") ? row.substring(9) : row;
        if (row.startsWith("vt-fc-") || row.startsWith("nio2-afc-")) {
            kind = (virtual ? "vt-" : "afc-") + (engine.equals("jdk") ? "jdk" : "proactor");
        }
        switch (engine) {
            case "threadpool" -> cmd.add("-Dproactor.engine=nio");
            case "linux-aio" -> cmd.add("-Dproactor.engine=linux-aio");
            case "io_uring" -> cmd.add("-Dproactor.engine=io_uring");
            case "jdk" -> { }
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
        if (f.length != 9 && f.length != 11) {
            throw new IllegalArgumentException("malformed result line: " + line);
        }
        boolean direct = Boolean.parseBoolean(f[6]);
        String note = "engine " + f[7] + (direct ? ", O_DIRECT" : ", buffered (page cache)");
        int threads = f.length == 11 ? Integer.parseInt(f[9]) : 0;
        int workers = f.length == 11 ? Integer.parseInt(f[10]) : 0;
        return new RowResult(row, workload, depth, direct, Long.parseLong(f[1]), Long.parseLong(f[2]),
                Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]), note, threads, workers);
    }

    static RowResult failed(String row, Workload workload, int depth, String note) {
        return new RowResult(row, workload, depth, false, 0, 0, 0, 0, 0, note);
    }
}
