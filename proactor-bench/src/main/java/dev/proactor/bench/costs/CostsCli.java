package dev.proactor.bench.costs;

import dev.proactor.bench.harness.LaunchOptions;
import dev.proactor.bench.harness.OptionChecks;
import dev.proactor.bench.harness.ParseOnly;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.TypedArgs;
import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.matrix.Row;
import dev.proactor.bench.matrix.ServerCatalog;
import dev.proactor.bench.matrix.ServerDefinition;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code costs} command line (picocli), turned into {@link CostsOptions}. A wrong value is a
 * {@link ParameterException} when run as a command, a {@link UsageException} through {@link #parse}.
 */
@Command(name = "costs", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true,
        description = {"Counted costs per echoed message: each server on one thread pinned to CPU 0, the C load "
                + "generator on CPU 1 (ping-pong of --block bytes), perf stat --per-thread on the server inside the "
                + "generator's measured window: CPU time, system calls by kind, context switches by thread, io_uring "
                + "enters and SQEs per enter, per message.",
                "Each round runs every row, every server unpaced (saturation) and then at a fixed offered rate below "
                        + "saturation (by default half the lowest round-1 saturation of the row); the server order "
                        + "rotates each round. Writes results.csv and summary.md."})
public final class CostsCli implements Callable<Integer> {
    /** The servers compared by default. */
    static final List<String> DEFAULT_SERVERS = List.of("proactor-nio-epoll", "proactor-epoll", "proactor-io_uring",
            "netty-nio", "netty-epoll", "netty-io_uring", "tp-reactor", "c-epoll", "c-io_uring");
    /** Bytes per message by default. */
    static final int BLOCK = 1024;

    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5",
            description = "Interleaved rounds (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--sessions", split = ",", paramLabel = "N", defaultValue = "1,100,1000,10000",
            description = "Rows: TCP sessions (default: ${DEFAULT-VALUE}).")
    private List<Integer> sessions;

    @Option(names = "--block", paramLabel = "BYTES", defaultValue = "1024",
            description = "Bytes per message, 1 .. 16777216 (default: ${DEFAULT-VALUE}); servers read them into their "
                    + "own buffers (the project's echo server: 16 KiB unless a row says otherwise).")
    private int block;

    @Option(names = "--servers", split = ",", paramLabel = "NAME",
            description = "Servers, in round 1's order (default: " + "proactor-nio-epoll,proactor-epoll,"
                    + "proactor-io_uring,netty-nio,netty-epoll,netty-io_uring,tp-reactor,c-epoll,c-io_uring).")
    private List<String> servers;

    @Option(names = "--rate", paramLabel = "auto|MSGS", defaultValue = "auto",
            description = "Fixed offered rate, messages per second in total, for every row; auto = half the lowest "
                    + "saturation msgs/s of the row in round 1 (default: ${DEFAULT-VALUE}).")
    private String rate;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "1",
            description = "Warm-up seconds after every session had its first echo (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--window", paramLabel = "S", defaultValue = "2",
            description = "Seconds perf counts, inside the load generator's measured window, which is 1 s longer "
                    + "(default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default proactor-bench/raw/costs-TIMESTAMP under the repository root).")
    private Path out;

    @Option(names = "--native-dir", paramLabel = "PATH",
            description = "Directory of loadgen and the C servers (default proactor-bench/target/native).")
    private Path nativeDir;

    @Mixin
    private final LaunchOptions launch = new LaunchOptions();

    @Option(names = "--perf", paramLabel = "PATH", defaultValue = "perf",
            description = "The perf executable (default: ${DEFAULT-VALUE}).")
    private String perf;

    @Option(names = "--dry-run", description = "Print the plan and the estimated duration, run nothing.")
    private boolean dryRun;

    @Option(names = "--reconnect", description = "Every message on a new connection (the load generator's "
            + "--reconnect): each session connects, sends its block, reads the echo and closes, so a message is a "
            + "connection accepted, echoed and closed by the server.")
    private boolean reconnect;

    /**
     * The command with its help footer listing every server name.
     *
     * @return the picocli command line
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new CostsCli());
        cl.getCommandSpec().usageMessage().footer("Servers: " + String.join(",", ServerCatalog.names()));
        return cl;
    }

    @Override
    public Integer call() {
        RepoLayout layout = RepoLayout.detect();
        CostsOptions options;
        try {
            options = toOptions(layout);
        } catch (UsageException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return CostsCommand.run(options, layout, TypedArgs.afterName(spec));
    }

    /**
     * Parses {@code argv} (the arguments after {@code costs}) without running anything.
     *
     * @param argv   the arguments
     * @param layout repository layout for defaults
     * @return the options
     * @throws UsageException on a malformed command line
     */
    static CostsOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        CostsCli cli = new CostsCli();
        ParseOnly.fill(cli, argv);
        return cli.toOptions(layout);
    }

    private CostsOptions toOptions(RepoLayout layout) throws UsageException {
        List<Row> rows = new ArrayList<>();
        for (int s : new LinkedHashSet<>(OptionChecks.atLeast("--sessions", sessions, 1))) {
            rows.add(new Row(s, 1, OptionChecks.inRange("--block", block, 1, 16 << 20), 0, "0", 0));
        }
        List<String> names = servers == null ? DEFAULT_SERVERS : servers;
        if (new LinkedHashSet<>(names).size() != names.size()) {
            throw new UsageException("--servers names a server twice: " + String.join(",", names));
        }
        List<ServerDefinition> selected = inGivenOrder(ServerCatalog.select(names), names);
        Path output = out != null ? out : layout.root().resolve("proactor-bench").resolve("raw").resolve("costs-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        return new CostsOptions(OptionChecks.atLeast("--rounds", rounds, 1), rows, selected, parseRate(rate),
                OptionChecks.atLeast("--warmup", warmup, 0), OptionChecks.atLeast("--window", window, 1),
                output.toAbsolutePath(), launch.host(), launch.examplesJar(layout),
                (nativeDir != null ? nativeDir : layout.defaultNativeDir()).toAbsolutePath(),
                launch.java(), launch.jvmOptions(), launch.serverCpus(), launch.clientCpus(), launch.pin(),
                launch.readyTimeout(), perf, dryRun, reconnect);
    }

    /** The catalog returns its display order; the costs command keeps the order given (round 1's order). */
    private static List<ServerDefinition> inGivenOrder(List<ServerDefinition> defs, List<String> names) {
        List<ServerDefinition> out = new ArrayList<>();
        for (String n : names) {
            for (ServerDefinition d : defs) {
                if (d.name().equals(n)) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    static long parseRate(String text) throws UsageException {
        if (text.toLowerCase(Locale.ROOT).equals("auto")) {
            return 0;
        }
        try {
            long r = Long.parseLong(text);
            if (r >= 1 && r <= 1_000_000_000L) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new UsageException("--rate must be auto or messages per second 1 .. 1000000000, got '" + text + "'");
    }
}
