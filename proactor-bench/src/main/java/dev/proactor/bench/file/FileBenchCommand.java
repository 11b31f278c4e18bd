package dev.proactor.bench.file;

import dev.proactor.bench.server.PrerequisiteException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code file-bench}: random 4 KiB and sequential 128 KiB reads of one large file at several depths, on the
 * proactor's file engines (each row in a fresh JVM, engine chosen by system property), the JDK's
 * {@code AsynchronousFileChannel}, and fio with libaio and io_uring. Writes {@code file-bench.md} and
 * {@code file-bench.csv} into {@code --out}.
 *
 * <p>Exit status: 0 when at least one row was measured, 1 when none was, 2 for a wrong command line, 3 when only fio
 * rows were asked for and fio is not installed.
 */
@Command(name = "file-bench", mixinStandardHelpOptions = true,
        description = "File read benchmark: thread-pool file engine, Linux AIO, io_uring, the JDK's "
                + "AsynchronousFileChannel and fio (libaio, io_uring) at the same block size and depth.")
public final class FileBenchCommand implements Callable<Integer> {

    /** Every row, in the order they run. */
    static final List<String> ALL_ROWS =
            List.of("threadpool", "linux-aio", "io_uring", "jdk-afc", "fio-libaio", "fio-io_uring",
                    "nio2-afc-jdk", "nio2-afc-threadpool", "nio2-afc-linux-aio", "nio2-afc-io_uring",
                    "vt-fc-jdk", "vt-fc-threadpool", "vt-fc-linux-aio", "vt-fc-io_uring");

    @Spec
    CommandSpec spec;

    @Option(names = "--file", paramLabel = "PATH", defaultValue = "proactor-file-bench.dat",
            description = "Test file: created when absent (kept for the next run), reused when it is a file-bench "
                    + "file at least --size large (default: ${DEFAULT-VALUE}).")
    Path file;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "4g",
            description = "File size with k/m/g suffix, a multiple of 1 MiB (default: ${DEFAULT-VALUE}).")
    String sizeText;

    @Option(names = "--rows", paramLabel = "LIST", split = ",",
            defaultValue = "threadpool,linux-aio,io_uring,jdk-afc,fio-libaio,fio-io_uring,nio2-afc-jdk,"
                    + "nio2-afc-threadpool,nio2-afc-linux-aio,nio2-afc-io_uring,vt-fc-jdk,vt-fc-threadpool,"
                    + "vt-fc-linux-aio,vt-fc-io_uring",
            description = "Rows to run (default: ${DEFAULT-VALUE}).")
    List<String> rows;

    @Option(names = "--workloads", paramLabel = "LIST", split = ",", defaultValue = "randread,read",
            description = "randread (4 KiB random) and/or read (128 KiB sequential) (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--depths", paramLabel = "LIST", split = ",", defaultValue = "1,32,128",
            description = "Reads in flight, each 1 .. 4096 (default: ${DEFAULT-VALUE}).")
    List<Integer> depths;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "2",
            description = "Seconds before measuring, 0 .. 3600 (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured seconds per row, 1 .. 3600 (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--direct", paramLabel = "auto|on|off", defaultValue = "auto",
            description = "O_DIRECT: auto = where the row supports it, on = everywhere (rows without it fail), "
                    + "off = buffered everywhere (default: ${DEFAULT-VALUE}).")
    String directText;

    @Option(names = "--file-threads", paramLabel = "N", defaultValue = "2",
            description = "Worker threads of the thread-pool file engine (proactor.fileThreads) and of the JDK "
                    + "channel's executor, 1 .. 1024 (default: ${DEFAULT-VALUE}, proactor's default).")
    int fileThreads;

    @Option(names = "--vthreads", paramLabel = "N", defaultValue = "1000",
            description = "Virtual threads of the vt-fc-* rows, each blocking in positional reads, 1 .. 100000 "
                    + "(default: ${DEFAULT-VALUE}); their depth column.")
    int vthreads;

    @Option(names = "--vt-java", paramLabel = "PATH", defaultValue = "auto",
            description = "Java (executable or home) of a JDK 21+ for the vt-fc-* rows; auto = this JVM if it is "
                    + "21+, else the newest JDK 21+ under /usr/lib/jvm (default: ${DEFAULT-VALUE}).")
    String vtJava;

    @Option(names = "--file-lanes", paramLabel = "N", defaultValue = "0",
            description = "proactor.fileLanes of the nio2-afc-* and vt-fc-* rows on ours, 0 = its default, "
                    + "otherwise 1 .. 100000 (default: ${DEFAULT-VALUE}).")
    int fileLanes;

    @Option(names = "--fio", paramLabel = "PATH", defaultValue = "fio",
            description = "fio executable, a name on the PATH or a path (default: ${DEFAULT-VALUE}).")
    String fio;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "file-bench-results",
            description = "Directory for file-bench.md, file-bench.csv and the rows' logs (default: "
                    + "${DEFAULT-VALUE}).")
    Path out;

    long size;
    DirectMode direct;
    List<Workload> workloadList;

    /**
     * Parses and checks a command line without running it (tests, and {@link #call()}).
     *
     * @throws ParameterException for a wrong command line, with a message naming the option
     */
    static FileBenchCommand parse(String... args) {
        FileBenchCommand c = new FileBenchCommand();
        new CommandLine(c).parseArgs(args);
        c.validate();
        return c;
    }

    void validate() {
        CommandLine cl = spec.commandLine();
        try {
            size = parseSize(sizeText);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, "--size: " + e.getMessage());
        }
        try {
            direct = DirectMode.byName(directText);
            workloadList = new ArrayList<>();
            for (String w : new LinkedHashSet<>(workloads)) {
                workloadList.add(Workload.byName(w));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
        for (String r : rows) {
            if (!ALL_ROWS.contains(r)) {
                throw new ParameterException(cl, "--rows: unknown row '" + r + "', allowed: "
                        + String.join(",", ALL_ROWS));
            }
        }
        for (int d : depths) {
            if (d < 1 || d > 4096) {
                throw new ParameterException(cl, "--depths: each must be 1 .. 4096, was " + d);
            }
        }
        if (warmup < 0 || warmup > 3600) {
            throw new ParameterException(cl, "--warmup must be 0 .. 3600, was " + warmup);
        }
        if (seconds < 1 || seconds > 3600) {
            throw new ParameterException(cl, "--seconds must be 1 .. 3600, was " + seconds);
        }
        if (fileThreads < 1 || fileThreads > 1024) {
            throw new ParameterException(cl, "--file-threads must be 1 .. 1024, was " + fileThreads);
        }
        if (vthreads < 1 || vthreads > 100_000) {
            throw new ParameterException(cl, "--vthreads must be 1 .. 100000, was " + vthreads);
        }
        if (fileLanes < 0 || fileLanes > 100_000) {
            throw new ParameterException(cl, "--file-lanes must be 0 .. 100000, was " + fileLanes);
        }
    }

    /**
     * Bytes of a size such as {@code 4g}, {@code 512m}, {@code 1048576}; a positive multiple of 1 MiB.
     *
     * @throws IllegalArgumentException naming the problem
     */
    static long parseSize(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g") || t.endsWith("t")) {
            unit = switch (t.charAt(t.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                case 'g' -> 1L << 30;
                default -> 1L << 40;
            };
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(t), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a size: '" + text + "' (examples: 4g, 512m)");
        }
        if (n <= 0 || n % (1 << 20) != 0) {
            throw new IllegalArgumentException("must be a positive multiple of 1 MiB, was '" + text + "'");
        }
        return n;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        PrintWriter outw = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Path> fioPath = FioRow.find(fio);
        Set<String> wanted = new LinkedHashSet<>(rows);
        boolean onlyFio = wanted.stream().allMatch(r -> r.startsWith("fio-"));
        if (fioPath.isEmpty() && onlyFio) {
            err.println("error: fio not found ('" + fio + "'); install it (Debian: apt-get install fio) or pass "
                    + "--fio PATH");
            return PrerequisiteException.EXIT_CODE;
        }
        Path dir = out.toAbsolutePath();
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        Path path = file.toAbsolutePath();
        if (!Files.exists(path)) {
            outw.printf("creating %s (%d MiB) ...%n", path, size >> 20);
            outw.flush();
        }
        long usable = TestFile.prepare(path, size);
        Path vt = JdkFinder.virtualThreadJava(vtJava).orElse(null);
        RowLauncher jvm = new RowLauncher(path, usable, warmup, seconds, direct, fileThreads, logs, vt, fileLanes);
        FioRow fioRow = fioPath.map(p -> new FioRow(p, path, usable, warmup, seconds, direct != DirectMode.OFF,
                logs)).orElse(null);
        List<RowResult> results = new ArrayList<>();
        for (Workload w : workloadList) {
            for (int d : new LinkedHashSet<>(depths)) {
                for (String r : ALL_ROWS) {
                    if (!wanted.contains(r) || r.startsWith("vt-fc-")) {
                        continue;
                    }
                    RowResult res;
                    if (r.startsWith("fio-")) {
                        res = fioRow == null ? RowLauncher.failed(r, w, d, "skipped: fio not found ('" + fio
                                + "'; Debian: apt-get install fio)") : fioRow.run(r.substring(4), w, d);
                    } else {
                        res = jvm.run(r, w, d);
                    }
                    print(outw, res);
                    results.add(res);
                }
            }
        }
        for (Workload w : workloadList) {
            for (String r : ALL_ROWS) {
                if (wanted.contains(r) && r.startsWith("vt-fc-")) {
                    RowResult res = jvm.run(r, w, vthreads); // depth: the number of virtual threads
                    print(outw, res);
                    results.add(res);
                }
            }
        }
        FileBenchReport report = new FileBenchReport(results);
        report.write(dir, preamble(path, usable));
        outw.println();
        outw.print(report.markdown());
        outw.println("results: " + dir.resolve("file-bench.md") + ", " + dir.resolve("file-bench.csv"));
        return results.stream().anyMatch(r -> r.ops() > 0) ? 0 : 1;
    }

    private static void print(PrintWriter outw, RowResult res) {
        outw.printf(Locale.ROOT, "%-19s %-8s depth %4d: %10.0f IOPS %9.1f MiB/s p50 %8.1f us p99 %8.1f us"
                + " threads %4d  %s%n", res.row(), res.workload().fioName(), res.depth(), res.iops(),
                res.mibPerSecond(), res.p50Us(), res.p99Us(), res.peakThreads(), res.note());
        outw.flush();
    }

    private String preamble(Path path, long usable) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "File %s, %d MiB; warm-up %s s, measured %s s per row; "
                        + "--direct %s; %d file threads (threadpool, jdk-afc).%n", path, usable >> 20, trim(warmup), trim(seconds),
                direct.name().toLowerCase(Locale.ROOT), fileThreads));
        long mem = memTotal();
        if (direct != DirectMode.ON && mem > 0 && usable < mem) {
            sb.append(String.format(Locale.ROOT, "%nNote: the file (%d MiB) is smaller than RAM (%d MiB): buffered "
                    + "rows (O_DIRECT no) read mostly from the page cache once it is warm.%n", usable >> 20,
                    mem >> 20));
        }
        return sb.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** MemTotal from /proc/meminfo in bytes, or 0 where there is none. */
    private static long memTotal() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
