package dev.proactor.bench.matrix;

import dev.proactor.bench.cli.Args;
import dev.proactor.bench.cli.UsageException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Parsed {@code matrix} command line.
 *
 * @param preset        quick or full
 * @param rows          the table to run
 * @param servers       servers to run, in display order
 * @param runs          repetitions of each point
 * @param seconds       measured seconds per run
 * @param warmup        warm-up seconds per run (after every session had its first echo)
 * @param out           output directory
 * @param host          loopback address servers bind and the load generator connects to
 * @param examplesJar   the project's examples jar
 * @param nativeDir     directory of {@code loadgen} and {@code epoll_echo}
 * @param java          java executable for the Java servers
 * @param jvmOptions    extra JVM options for the Java servers
 * @param serverCpus    taskset CPU list of the server
 * @param clientCpus    taskset CPU list of the load generator
 * @param pin           whether to pin with taskset
 * @param clientThreads load generator threads
 * @param readyTimeout  seconds to wait for a server's ready line and for all first echoes
 * @param dryRun        print the plan and exit
 * @param coalesce      load generator writes all blocks the window allows at once
 * @param disturbed     the operator says other work ran on the machine: the report says so and flags every row
 * @param note          free text for the top of the report, empty when none
 */
public record MatrixOptions(Preset preset, List<Row> rows, List<ServerDefinition> servers, int runs, int seconds,
                            int warmup, Path out, String host, Path examplesJar, Path nativeDir, String java,
                            List<String> jvmOptions, String serverCpus, String clientCpus, boolean pin,
                            int clientThreads, int readyTimeout, boolean dryRun, boolean coalesce,
                            boolean disturbed, String note) {

    /** Default JVM options of the Java servers. */
    public static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g";

    /** Usage text. */
    public static final String USAGE = String.join("\n",
            "usage: java -jar proactor-bench.jar matrix [--quick|--full] [options]",
            "",
            "  --quick                 smoke test (the default without table options): sessions 1,100 x window 0,8x,",
            "                          1 run of 3 s after 2 s warm-up - too few runs for a published table",
            "  --full                  the documented table, 18 rows, 3 runs of 3 s after 5 s warm-up",
            "table (any of these replaces the preset's table by the product of the lists;",
            "       missing lists default to sessions 1,100 threads 1 block 512 window 0,8x delay 0;",
            "       without --quick such a table takes 3 runs of 3 s after 5 s warm-up, like --full):",
            "  --sessions 1,100        TCP connections",
            "  --threads 1             server threads",
            "  --block 512             bytes per write",
            "  --window 0,8x           bytes in flight per session: 0 = ping-pong, Nx = N blocks, or bytes",
            "  --delay 0               server busy work per read completion, microseconds",
            "run:",
            "  --servers a,b,...       servers (default: quick = a handful, full = all)",
            "  --runs N --seconds S --warmup S   (publish tables with --runs 3 or more: the tail varies)",
            "  --out DIR               output directory (default bench-out/matrix-TIMESTAMP under the repo root)",
            "  --host 127.0.0.1",
            "  --examples-jar PATH     the project's examples jar (default examples/target/proactor-examples.jar)",
            "  --native-dir PATH       loadgen and epoll_echo (default proactor-bench/target/native)",
            "  --java PATH             java for the Java servers (default: this JVM; virtual threads need 21+)",
            "  --jvm-opts \"...\"        JVM options of the Java servers (default \"" + DEFAULT_JVM_OPTS + "\")",
            "  --server-cpus 0 --client-cpus 1   taskset CPU lists; --no-pin disables pinning",
            "  --client-threads 1      load generator threads",
            "  --coalesce              load generator writes every whole block the window allows at once",
            "                          (default one write per block; use when the client is the limit)",
            "  --ready-timeout 120     seconds for a server to print its ready line / all sessions to echo",
            "  --disturbed             other work ran on the machine (builds, tests): results.md says so and",
            "                          flags every row (without it, runs with other CPU >= 10 % are flagged)",
            "  --note TEXT             a note for the top of results.md (e.g. what else ran, which commit)",
            "  --dry-run               print the plan and the estimated duration, run nothing",
            "servers: " + serverNames());

    private static final Set<String> VALUE_OPTIONS = Set.of("sessions", "threads", "block", "window", "delay",
            "servers", "runs", "seconds", "warmup", "out", "host", "examples-jar", "native-dir", "java", "jvm-opts",
            "server-cpus", "client-cpus", "client-threads", "ready-timeout", "note");
    private static final Set<String> FLAG_OPTIONS = Set.of("quick", "full", "no-pin", "dry-run", "help", "coalesce",
            "disturbed");

    /**
     * Whether the arguments ask for help.
     *
     * @param argv arguments
     * @return true for --help / -h
     */
    public static boolean wantsHelp(String[] argv) {
        return Arrays.asList(argv).contains("--help") || Arrays.asList(argv).contains("-h");
    }

    /**
     * Parses the matrix command line.
     *
     * @param argv   arguments after {@code matrix}
     * @param layout repository layout for defaults
     * @return the options
     * @throws UsageException on a malformed command line
     */
    public static MatrixOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        Args a = Args.parse(argv, VALUE_OPTIONS, FLAG_OPTIONS);
        if (a.has("quick") && a.has("full")) {
            throw new UsageException("--quick and --full exclude each other");
        }
        Preset preset = a.has("full") ? Preset.FULL : Preset.QUICK;
        List<Row> rows = customRows(a);
        // Runs, seconds and warm-up: a table given on the command line is meant to be published
        // unless --quick says otherwise, so it takes the full preset's repetitions.
        Preset timing = a.has("quick") || rows.isEmpty() && !a.has("full") ? Preset.QUICK : Preset.FULL;
        if (rows.isEmpty()) {
            rows = preset.rows();
        }
        List<ServerDefinition> servers = ServerCatalog.select(a.list("servers", ServerCatalog.defaults(preset)));
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path out = Paths.get(a.string("out", layout.root().resolve("bench-out").resolve("matrix-" + stamp).toString()));
        List<String> jvmOptions = splitOptions(a.string("jvm-opts", DEFAULT_JVM_OPTS));
        String java = a.string("java", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        return new MatrixOptions(preset, rows, servers,
                a.integer("runs", timing.runs(), 1),
                a.integer("seconds", timing.seconds(), 1),
                a.integer("warmup", timing.warmup(), 0),
                out.toAbsolutePath(),
                a.string("host", "127.0.0.1"),
                Paths.get(a.string("examples-jar", layout.defaultExamplesJar().toString())).toAbsolutePath(),
                Paths.get(a.string("native-dir", layout.defaultNativeDir().toString())).toAbsolutePath(),
                java, jvmOptions,
                a.string("server-cpus", "0"),
                a.string("client-cpus", "1"),
                !a.has("no-pin"),
                a.integer("client-threads", 1, 1),
                a.integer("ready-timeout", 120, 1),
                a.has("dry-run"),
                a.has("coalesce"),
                a.has("disturbed"),
                a.string("note", "").trim());
    }

    private static List<Row> customRows(Args a) throws UsageException {
        boolean custom = false;
        for (String dim : List.of("sessions", "threads", "block", "window", "delay")) {
            custom |= a.has(dim);
        }
        if (!custom) {
            return List.of();
        }
        List<Integer> sessions = a.intList("sessions", List.of(1, 100), 1);
        List<Integer> threads = a.intList("threads", List.of(1), 1);
        List<Integer> blocks = a.intList("block", List.of(512), 1);
        List<WindowSpec> windows = new ArrayList<>();
        for (String w : a.list("window", List.of("0", "8x"))) {
            windows.add(WindowSpec.parse(w));
        }
        List<Integer> delays = a.intList("delay", List.of(0), 0);
        LinkedHashSet<Row> rows = new LinkedHashSet<>();
        for (int delay : delays) {
            for (int t : threads) {
                for (int block : blocks) {
                    for (WindowSpec w : windows) {
                        for (int s : sessions) {
                            int bytes = w.bytes(block);
                            if (bytes != 0 && bytes < block) {
                                throw new UsageException("window " + w.token() + " (" + bytes
                                        + " bytes) is smaller than block " + block + "; use 0 for ping-pong");
                            }
                            rows.add(new Row(s, t, block, bytes, w.token(), delay));
                        }
                    }
                }
            }
        }
        return new ArrayList<>(rows);
    }

    private static List<String> splitOptions(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                out.add(part);
            }
        }
        return out;
    }

    private static String serverNames() {
        List<String> names = new ArrayList<>();
        for (ServerDefinition d : ServerCatalog.all()) {
            names.add(d.name());
        }
        return String.join(",", names);
    }
}
