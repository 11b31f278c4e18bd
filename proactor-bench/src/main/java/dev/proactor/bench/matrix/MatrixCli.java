package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.LaunchOptions;
import dev.proactor.bench.harness.OptionChecks;
import dev.proactor.bench.harness.ParseOnly;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.TypedArgs;
import dev.proactor.bench.harness.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code matrix} command line (picocli): the options as typed fields, turned into {@link MatrixOptions}
 * with the presets' defaults applied. A wrong value is a {@link ParameterException} when run as a command,
 * a {@link UsageException} through {@link MatrixOptions#parse}.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true,
        description = {"Runs the echo benchmark matrix: every server driven by the C load generator, server and "
                + "client pinned to different cores.",
                "Any table option (--sessions, --threads, --block, --window, --delay) replaces the preset's table by "
                        + "the product of the lists; a missing list defaults to sessions 1,100 threads 1 block 512 "
                        + "window 0,8x delay 0, and such a table takes 3 runs of 3 s after 5 s warm-up like --full "
                        + "(unless --quick)."})
public final class MatrixCli implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "Smoke test (the default without table options): sessions 1,100 x "
            + "window 0,8x and 1 session x 2 blocks in flight, 1 run of 3 s after 2 s warm-up; too few runs for "
            + "a published table.")
    private boolean quick;

    @Option(names = "--full", description = "The documented table, 19 rows, 3 runs of 3 s after 5 s warm-up.")
    private boolean full;

    @Option(names = "--sessions", split = ",", paramLabel = "N", description = "TCP connections, e.g. 1,100.")
    private List<Integer> sessions;

    @Option(names = "--threads", split = ",", paramLabel = "T", description = "Server threads, e.g. 1.")
    private List<Integer> threads;

    @Option(names = "--block", split = ",", paramLabel = "BYTES", description = "Bytes per write, e.g. 512.")
    private List<Integer> blocks;

    @Option(names = "--window", split = ",", paramLabel = "W",
            description = "Bytes in flight per session: 0 = ping-pong, Nx = N blocks, or bytes; e.g. 0,8x.")
    private List<String> windows;

    @Option(names = "--delay", split = ",", paramLabel = "US",
            description = "Server busy work per read completion, microseconds, e.g. 0.")
    private List<Integer> delays;

    @Option(names = "--servers", split = ",", paramLabel = "NAME",
            description = "Servers to run, in this order (default: quick = a handful, full = all).")
    private List<String> servers;

    @Option(names = "--runs", paramLabel = "N",
            description = "Repetitions of each point (publish tables with 3 or more: the tail varies).")
    private Integer runs;

    @Option(names = "--seconds", paramLabel = "S", description = "Measured seconds per run.")
    private Integer seconds;

    @Option(names = "--warmup", paramLabel = "S", description = "Warm-up seconds per run.")
    private Integer warmup;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default bench-out/matrix-TIMESTAMP under the repository root).")
    private Path out;

    @Option(names = "--native-dir", paramLabel = "PATH",
            description = "Directory of loadgen and the C servers epoll_echo and uring_echo (default proactor-bench/target/native).")
    private Path nativeDir;

    @Mixin
    private final LaunchOptions launch = new LaunchOptions();

    @Option(names = "--client-threads", paramLabel = "N", defaultValue = "1",
            description = "Load generator threads (default: ${DEFAULT-VALUE}).")
    private int clientThreads;

    @Option(names = "--coalesce", description = "The load generator writes every whole block the window allows at "
            + "once (default one write per block; use when the client is the limit).")
    private boolean coalesce;

    @Option(names = "--disturbed", description = "Other work ran on the machine (builds, tests): results.md says so "
            + "and flags every row (without it, runs with other CPU >= 10 %% are flagged).")
    private boolean disturbed;

    @Option(names = "--note", paramLabel = "TEXT", defaultValue = "",
            description = "A note for the top of results.md (what else ran, which commit).")
    private String note;

    @Option(names = "--dry-run", description = "Print the plan and the estimated duration, run nothing.")
    private boolean dryRun;

    /** The command with its help footer listing every server name. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new MatrixCli());
        cl.getCommandSpec().usageMessage().footer("Servers: " + String.join(",", ServerCatalog.names()));
        return cl;
    }

    @Override
    public Integer call() {
        RepoLayout layout = RepoLayout.detect();
        MatrixOptions options;
        try {
            options = toOptions(layout);
        } catch (UsageException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return MatrixCommand.run(options, layout, TypedArgs.afterName(spec));
    }

    /**
     * Parses {@code argv} (the arguments after {@code matrix}) without running anything.
     *
     * @throws UsageException on a malformed command line
     */
    static MatrixOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        MatrixCli cli = new MatrixCli();
        ParseOnly.fill(cli, argv);
        return cli.toOptions(layout);
    }

    private MatrixOptions toOptions(RepoLayout layout) throws UsageException {
        if (quick && full) {
            throw new UsageException("--quick and --full exclude each other");
        }
        Preset preset = full ? Preset.FULL : Preset.QUICK;
        List<Row> rows = customRows();
        // Runs, seconds and warm-up: a table given on the command line is meant to be published
        // unless --quick says otherwise, so it takes the full preset's repetitions.
        Preset timing = quick || rows.isEmpty() && !full ? Preset.QUICK : Preset.FULL;
        if (rows.isEmpty()) {
            rows = preset.rows();
        }
        List<ServerDefinition> selected = ServerCatalog.select(servers == null ? ServerCatalog.defaults(preset)
                : servers);
        return new MatrixOptions(preset, rows, selected,
                OptionChecks.atLeast("--runs", runs == null ? timing.runs() : runs, 1),
                OptionChecks.atLeast("--seconds", seconds == null ? timing.seconds() : seconds, 1),
                OptionChecks.atLeast("--warmup", warmup == null ? timing.warmup() : warmup, 0),
                OptionChecks.outputOrStamped(out, layout, "matrix"), launch.host(), launch.examplesJar(layout),
                (nativeDir != null ? nativeDir : layout.defaultNativeDir()).toAbsolutePath(),
                launch.java(), launch.jvmOptions(), launch.serverCpus(), launch.clientCpus(), launch.pin(),
                OptionChecks.atLeast("--client-threads", clientThreads, 1),
                launch.readyTimeout(),
                dryRun, coalesce, disturbed, note.trim());
    }

    private List<Row> customRows() throws UsageException {
        if (sessions == null && threads == null && blocks == null && windows == null && delays == null) {
            return List.of();
        }
        List<Integer> s = OptionChecks.atLeast("--sessions", sessions == null ? List.of(1, 100) : sessions, 1);
        List<Integer> t = OptionChecks.atLeast("--threads", threads == null ? List.of(1) : threads, 1);
        List<Integer> b = OptionChecks.atLeast("--block", blocks == null ? List.of(512) : blocks, 1);
        List<Integer> d = OptionChecks.atLeast("--delay", delays == null ? List.of(0) : delays, 0);
        List<WindowSpec> w = new ArrayList<>();
        for (String token : windows == null ? List.of("0", "8x") : windows) {
            w.add(WindowSpec.parse(token));
        }
        LinkedHashSet<Row> rows = new LinkedHashSet<>();
        for (int delay : d) {
            for (int threadCount : t) {
                for (int block : b) {
                    for (WindowSpec window : w) {
                        for (int sessionCount : s) {
                            int bytes = window.bytes(block);
                            if (bytes != 0 && bytes < block) {
                                throw new UsageException("window " + window.token() + " (" + bytes
                                        + " bytes) is smaller than block " + block + "; use 0 for ping-pong");
                            }
                            rows.add(new Row(sessionCount, threadCount, block, bytes, window.token(), delay));
                        }
                    }
                }
            }
        }
        return new ArrayList<>(rows);
    }
}
