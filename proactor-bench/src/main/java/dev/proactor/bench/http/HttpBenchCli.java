package dev.proactor.bench.http;

import dev.proactor.bench.harness.LaunchOptions;
import dev.proactor.bench.harness.OptionChecks;
import dev.proactor.bench.harness.ParseOnly;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.TypedArgs;
import dev.proactor.bench.harness.UsageException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code http-bench} command line (picocli): the options as typed fields, turned into
 * {@link HttpBenchOptions}. A wrong value is a {@link ParameterException} when run as a command, a
 * {@link UsageException} through {@link HttpBenchOptions#parse}.
 */
@Command(name = "http-bench", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true,
        description = "Runs the HTTP static file benchmark: each server pinned to one core, wrk on the other, "
                + "GET /SIZE.bin for each size.")
public final class HttpBenchCli implements Callable<Integer> {

    private static final String CPU_LIST = "[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*";

    @Spec
    private CommandSpec spec;

    @Option(names = "--servers", split = ",", paramLabel = "NAME",
            description = "Servers, in this order (default: proactor-http,netty-http,nginx).")
    private List<String> servers;

    @Option(names = "--sizes", split = ",", paramLabel = "SIZE", defaultValue = "1k,64k,1m",
            description = "File sizes (k = 1024, m = 1024*1024), one file per size (default: ${DEFAULT-VALUE}).")
    private List<String> sizes;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "50",
            description = "wrk connections, -c (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
            description = "Server threads: proactor pool, Netty event loops, nginx workers (default: "
                    + "${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured seconds per run, wrk -d (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "5",
            description = "Unmeasured wrk seconds on the same server process first, 0 = none; the JVM servers "
                    + "compile on their one pinned core, 2 s is not enough (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--warmup-waves", paramLabel = "N", defaultValue = "1",
            description = "Split the warm-up into N wrk runs, each opening and closing its connections, so the "
                    + "server has closed and accepted connections (and compiled those paths) before the measured "
                    + "wrk connects, as a long-running server has (default: ${DEFAULT-VALUE}).")
    private int warmupWaves;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "2",
            description = "Repetitions; the server order rotates between runs (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default bench-out/http-TIMESTAMP under the repository root).")
    private Path out;

    /** The launch options; a server's ready line is all --ready-timeout waits for here, 60 s by default. */
    @Mixin
    private final LaunchOptions launch = new LaunchOptions(60);

    @Option(names = "--nginx", paramLabel = "PATH", defaultValue = "/usr/sbin/nginx",
            description = "nginx executable (default: ${DEFAULT-VALUE}).")
    private Path nginx;

    @Option(names = "--wrk", paramLabel = "PATH", defaultValue = "wrk",
            description = "wrk executable; a name is looked up on the PATH (default: ${DEFAULT-VALUE}).")
    private String wrk;

    @Option(names = "--wrk-threads", paramLabel = "N", defaultValue = "1",
            description = "wrk threads, -t (default: ${DEFAULT-VALUE}).")
    private int wrkThreads;

    @Option(names = "--dry-run", description = "Print the plan and the commands, run nothing.")
    private boolean dryRun;

    /** The command with its help footer listing every server name. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new HttpBenchCli());
        cl.getCommandSpec().usageMessage().footer("Servers: " + String.join(",", HttpServerCatalog.names()));
        return cl;
    }

    @Override
    public Integer call() {
        RepoLayout layout = RepoLayout.detect();
        HttpBenchOptions options;
        try {
            options = toOptions(layout);
        } catch (UsageException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return HttpBenchCommand.run(options, layout, TypedArgs.afterName(spec));
    }

    /**
     * Parses {@code argv} (the arguments after {@code http-bench}) without running anything.
     *
     * @throws UsageException on a malformed command line
     */
    static HttpBenchOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        HttpBenchCli cli = new HttpBenchCli();
        ParseOnly.fill(cli, argv);
        return cli.toOptions(layout);
    }

    private HttpBenchOptions toOptions(RepoLayout layout) throws UsageException {
        return new HttpBenchOptions(HttpServerCatalog.select(servers == null ? HttpServerCatalog.DEFAULT : servers),
                fileSizes(),
                OptionChecks.atLeast("--connections", connections, 1),
                OptionChecks.atLeast("--threads", threads, 1),
                OptionChecks.atLeast("--seconds", seconds, 1),
                OptionChecks.atLeast("--warmup", warmup, 0),
                OptionChecks.atLeast("--warmup-waves", warmupWaves, 1),
                OptionChecks.atLeast("--runs", runs, 1),
                OptionChecks.outputOrStamped(out, layout, "http"), launch.host(), launch.examplesJar(layout),
                nginx.toAbsolutePath(), wrk,
                OptionChecks.atLeast("--wrk-threads", wrkThreads, 1),
                launch.java(), launch.jvmOptions(),
                cpuList("--server-cpus", launch.serverCpus()),
                cpuList("--client-cpus", launch.clientCpus()),
                launch.pin(),
                launch.readyTimeout(),
                dryRun);
    }

    private List<FileSize> fileSizes() throws UsageException {
        Map<String, FileSize> byLabel = new LinkedHashMap<>();
        for (String s : sizes) {
            FileSize size = FileSize.parse(s);
            if (byLabel.putIfAbsent(size.label(), size) != null) {
                throw new UsageException("size '" + s + "' is listed twice");
            }
        }
        return List.copyOf(byLabel.values());
    }

    private static String cpuList(String option, String list) throws UsageException {
        if (!list.matches(CPU_LIST)) {
            throw new UsageException(option + " needs a taskset CPU list such as 0, 0-1 or 0,2, got '" + list + "'");
        }
        return list;
    }
}
