package dev.proactor.bench.tls;

import dev.proactor.bench.matrix.Launcher;
import dev.proactor.bench.matrix.ProcessRegistry;
import dev.proactor.bench.matrix.RepoLayout;
import dev.proactor.bench.matrix.ServerProcess;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.TlsCredentials;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the TLS echo benchmark: makes the certificate, pins this JVM (the client) to the client CPUs, then for each
 * server row starts the server in its own JVM pinned to the server CPUs, runs every mode {@code runs} times with
 * the one {@link TlsEchoClient}, stops the server, and finally writes the report into the output directory.
 *
 * <p>A server that cannot run here (exit 3, e.g. no native epoll) is skipped with a note; a server that fails
 * (no ready line, a wrong echoed byte, a closed connection) is noted and makes the exit status 1.
 */
public final class TlsEchoRunner {
    private static final Pattern READY = Pattern.compile("listening on \\S+:(\\d+) ");
    private static final String HOST = "127.0.0.1";

    private final TlsEchoOptions options;
    private final PrintWriter out;
    private final List<TlsEchoResult> results = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private boolean failed;
    private boolean clientWarm;

    /**
     * A runner.
     *
     * @param options the parsed command line
     * @param out     progress and the final table
     */
    public TlsEchoRunner(TlsEchoOptions options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /**
     * Runs everything.
     *
     * @return 0 when every row ran, 1 when one failed
     * @throws IOException          when the output directory or certificate cannot be made
     * @throws InterruptedException when interrupted
     */
    public int run() throws IOException, InterruptedException {
        Path dir = Files.createDirectories(options.out());
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path keyDir = Files.createTempDirectory("tls-echo");
        Path keystore = keyDir.resolve("echo.p12");
        String password = "tls-echo-" + Long.toHexString(System.nanoTime());
        try {
            TlsCredentials.generate(keystore, password);
            TlsCredentials credentials = TlsCredentials.load(keystore, password);
            boolean pin = options.pin() && Launcher.findTaskset();
            if (options.pin() && !pin) {
                notes.add("taskset not found: server and client were not pinned");
            }
            if (pin) {
                pinSelf(options.clientCpus());
            }
            ProcessRegistry registry = new ProcessRegistry();
            try (TlsEchoClient client = new TlsEchoClient(options.clientThreads(), credentials)) {
                out.println("tls-echo: client on Netty " + client.transport() + (pin ? ", CPUs "
                        + options.clientCpus() + "; servers on CPUs " + options.serverCpus() : ", not pinned"));
                for (ServerRow row : ServerRow.forTransports(options.transports())) {
                    runRow(row, client, keystore, password, pin, logs, registry);
                }
            }
        } finally {
            Files.deleteIfExists(keystore);
            Files.deleteIfExists(keyDir);
        }
        TlsEchoReport report = new TlsEchoReport(results, notes);
        String md = report.markdown(String.format(Locale.ROOT,
                "TLS echo: %d sessions, %d B blocks, window %d, %d s (+%d s warm-up) x %d runs",
                options.sessions(), options.block(), options.window(), options.seconds(), options.warmup(),
                options.runs()));
        Files.writeString(dir.resolve("tls-echo.md"), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tls-echo.csv"), report.summaryCsv(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tls-echo-runs.csv"), report.runsCsv(), StandardCharsets.UTF_8);
        out.println();
        out.print(md);
        out.println();
        out.println("written: " + dir.resolve("tls-echo.md") + ", tls-echo.csv, tls-echo-runs.csv, logs/");
        return failed ? 1 : 0;
    }

    /**
     * Drives the first server, unmeasured, for {@code --client-warmup} seconds split over the modes: the client
     * shares its pinned CPU with its JIT compiler threads, and without this the first row was measured against a
     * client still compiling (seen as the first server's first runs at half the throughput of the later ones).
     */
    private void warmUpClient(ServerRow row, TlsEchoClient client, InetSocketAddress address)
            throws IOException, InterruptedException {
        int perMode = options.clientWarmup() / options.modes().size();
        if (perMode == 0) {
            return;
        }
        out.println("tls-echo: client warm-up, " + options.clientWarmup() + " s against " + row.label());
        for (Mode mode : options.modes()) {
            client.run(address, spec(mode, perMode, 1), row.server(), row.transport(), 0, () -> -1);
        }
    }

    /** A run of {@code mode} with the command line's sessions, block and window. */
    private TlsEchoClient.RunSpec spec(Mode mode, int warmupSeconds, int seconds) {
        return new TlsEchoClient.RunSpec(mode, options.sessions(), options.block(), options.window(), warmupSeconds,
                seconds);
    }

    private void runRow(ServerRow row, TlsEchoClient client, Path keystore, String password, boolean pin,
                        Path logs, ProcessRegistry registry) throws IOException, InterruptedException {
        Path log = logs.resolve(row.server() + "-" + row.transport() + ".log");
        ServerProcess server = ServerProcess.start(serverCommand(row, keystore, password, pin), log, registry);
        try {
            ServerProcess.Readiness ready = server.awaitReady(options.readyTimeout());
            if (!ready.ready()) {
                boolean skip = ready.exitCode() == PrerequisiteException.EXIT_CODE;
                notes.add(row.label() + (skip ? " skipped: " : " failed to start: ") + ready.reason());
                failed |= !skip;
                out.println(row.label() + (skip ? ": skipped, " : ": FAILED, ") + ready.reason());
                return;
            }
            Matcher m = READY.matcher(ready.readyLine());
            if (!m.find()) {
                throw new IOException("unexpected ready line: " + ready.readyLine());
            }
            InetSocketAddress address = new InetSocketAddress(HOST, Integer.parseInt(m.group(1)));
            if (!clientWarm) {
                clientWarm = true;
                warmUpClient(row, client, address);
            }
            for (Mode mode : options.modes()) {
                TlsEchoClient.RunSpec spec = spec(mode, options.warmup(), options.seconds());
                for (int run = 1; run <= options.runs(); run++) {
                    TlsEchoResult r;
                    try {
                        r = client.run(address, spec, row.server(), row.transport(), run,
                                () -> TlsEchoClient.cpuNanos(server.pid()));
                    } catch (IOException e) {
                        notes.add(row.label() + " " + mode.label() + " run " + run + " failed: " + e.getMessage()
                                + " (server log: " + log + ")");
                        failed = true;
                        out.println(row.label() + " " + mode.label() + " run " + run + ": FAILED, " + e.getMessage());
                        return;
                    }
                    results.add(r);
                    out.printf(Locale.ROOT, "%-22s %-9s run %d: %8.1f MiB/s %10.0f msgs/s  server CPU %.0f %% "
                            + "(%.2f us/msg), client CPU %.0f %%%s%n", row.label(), mode.label(), run,
                            r.mibPerSecond(), r.msgsPerSecond(), r.serverCpuPercent(), r.serverCpuUsPerMsg(),
                            r.clientCpuPercent(),
                            mode == Mode.PING_PONG ? "  p50 " + r.latencyPercentileUs(50) + " us  p99 "
                                    + r.latencyPercentileUs(99) + " us" : "");
                }
            }
        } finally {
            server.stop();
        }
    }

    private List<String> serverCommand(ServerRow row, Path keystore, String password, boolean pin) {
        List<String> cmd = new ArrayList<>();
        if (pin) {
            cmd.addAll(List.of("taskset", "-c", options.serverCpus()));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options.jvmOptions());
        cmd.add("-D" + TlsCredentials.KEYSTORE_PROPERTY + "=" + keystore);
        cmd.add("-D" + TlsCredentials.PASSWORD_PROPERTY + "=" + password);
        cmd.addAll(row.properties());
        cmd.addAll(RepoLayout.detect().selfLaunchArgs());
        cmd.addAll(List.of(row.server(), "--host", HOST, "--port", "0",
                "--threads", Integer.toString(options.serverThreads())));
        return cmd;
    }

    /** Pins every thread of this JVM; threads started later inherit the mask from their creators. */
    private void pinSelf(String cpus) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("cannot pin the client to CPUs " + cpus + ": " + output);
        }
    }
}
