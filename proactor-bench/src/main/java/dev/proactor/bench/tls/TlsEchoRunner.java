package dev.proactor.bench.tls;

import dev.proactor.bench.harness.OptionChecks;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.ServerProcess;
import dev.proactor.bench.harness.Taskset;
import dev.proactor.bench.server.PrerequisiteException;
import dev.proactor.bench.server.TlsCredentials;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the TLS echo benchmark: makes the certificate, pins this JVM (the client) to the client CPUs, starts every
 * server row in its own JVM pinned to the server CPUs, warms the client and each server up, then measures each
 * server in turn with the one {@link TlsEchoClient}, run by run and mode by mode (see {@link #measure}), stops the
 * servers, and finally writes the report into the output directory.
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
            boolean pin = options.pin() && Taskset.find();
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
                List<LiveServer> live = new ArrayList<>();
                try {
                    startAll(live, keystore, password, pin, logs, registry);
                    measure(live, client);
                } finally {
                    for (LiveServer s : live) {
                        s.process.stop();
                    }
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
     * Drives a server, unmeasured, for {@code seconds} split over the modes. Two reasons, both because a JIT shares
     * the CPU it is pinned to: before anything is measured the client's own JIT ({@code --client-warmup}; without
     * it the first row was measured against a client still compiling, at half the throughput of its later runs), and
     * before the first run each server's ({@code --server-warmup}; with only a per-run warm-up of 3 s,
     * async-profiler over a server's life up to the end of its first 8 s run found 45–53 % of its process's CPU
     * samples in the C2 compiler, and the windowed rows of two servers moved between 0.75 and 1.01 of each other
     * from round to round).
     */
    private void warmUp(LiveServer s, TlsEchoClient client, int seconds, String what)
            throws IOException, InterruptedException {
        int perMode = seconds / options.modes().size();
        if (perMode == 0) {
            return;
        }
        out.println("tls-echo: " + what + " warm-up, " + seconds + " s against " + s.row.label());
        for (Mode mode : options.modes()) {
            client.run(s.address, spec(mode, perMode, 1), s.row.server(), s.row.transport(), 0, () -> -1);
        }
    }

    /** A run of {@code mode} with the command line's sessions, block and window. */
    private TlsEchoClient.RunSpec spec(Mode mode, int warmupSeconds, int seconds) {
        return new TlsEchoClient.RunSpec(mode, options.sessions(), options.block(), options.window(), warmupSeconds,
                seconds);
    }

    /**
     * Starts every server row into {@code live} (so that the caller stops what was started even when a later start
     * fails); a row that cannot run here is noted and left out. The servers idle on their CPUs until their turn.
     */
    private void startAll(List<LiveServer> live, Path keystore, String password, boolean pin, Path logs,
                          ProcessRegistry registry) throws IOException, InterruptedException {
        for (ServerRow row : ServerRow.forTransports(options.transports())) {
            Path log = logs.resolve(row.server() + "-" + row.transport() + ".log");
            ServerProcess server = ServerProcess.start(serverCommand(row, keystore, password, pin), log, registry);
            ServerProcess.Readiness ready = server.awaitReady(options.readyTimeout());
            if (!ready.ready()) {
                boolean skip = ready.exitCode() == PrerequisiteException.EXIT_CODE;
                notes.add(row.label() + (skip ? " skipped: " : " failed to start: ") + ready.reason());
                failed |= !skip;
                out.println(row.label() + (skip ? ": skipped, " : ": FAILED, ") + ready.reason());
                server.stop();
                continue;
            }
            Matcher m = READY.matcher(ready.readyLine());
            if (!m.find()) {
                server.stop();
                throw new IOException("unexpected ready line: " + ready.readyLine());
            }
            live.add(new LiveServer(row, server, new InetSocketAddress(HOST, Integer.parseInt(m.group(1))), log));
        }
    }

    /**
     * Warms the client and every server up, then measures: for each run, each mode, each server in turn, the order
     * of the servers reversed in every second run. Interleaved so that the machine's drift over the minutes of a
     * benchmark, and the client's own JIT still settling, fall on every server alike: with one server after the
     * other, the first server's runs came out below the second's in every round (6 of 6 windowed ratios under 1.0
     * with equal server CPU per message). A server whose run fails is noted and measured no further.
     */
    private void measure(List<LiveServer> live, TlsEchoClient client) throws IOException, InterruptedException {
        if (live.isEmpty()) {
            return;
        }
        warmUp(live.get(0), client, options.clientWarmup(), "client");
        for (LiveServer s : live) {
            warmUp(s, client, options.serverWarmup(), "server");
        }
        for (int run = 1; run <= options.runs(); run++) {
            List<LiveServer> order = runOrder(live, run);
            for (Mode mode : options.modes()) {
                for (LiveServer s : order) {
                    if (!s.failed) {
                        measureOnce(s, client, mode, run);
                    }
                }
            }
        }
    }

    /**
     * The order the servers are measured in during run {@code run} (from 1): as started in odd runs, reversed in even
     * ones, so that no server is always measured first or right after the same neighbour.
     */
    static <T> List<T> runOrder(List<T> servers, int run) {
        List<T> order = new ArrayList<>(servers);
        if (run % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    private void measureOnce(LiveServer s, TlsEchoClient client, Mode mode, int run)
            throws InterruptedException {
        ServerRow row = s.row;
        TlsEchoResult r;
        try {
            r = client.run(s.address, spec(mode, options.warmup(), options.seconds()), row.server(), row.transport(),
                    run, () -> TlsEchoClient.cpuNanos(s.process.pid()));
        } catch (IOException e) {
            notes.add(row.label() + " " + mode.label() + " run " + run + " failed: " + e.getMessage()
                    + " (server log: " + s.log + ")");
            failed = true;
            s.failed = true;
            out.println(row.label() + " " + mode.label() + " run " + run + ": FAILED, " + e.getMessage());
            return;
        }
        results.add(r);
        out.printf(Locale.ROOT, "%-22s %-9s run %d: %8.1f MiB/s %10.0f msgs/s  server CPU %.0f %% "
                + "(%.2f us/msg), client CPU %.0f %% (%.3f reads/msg)%s%n", row.label(), mode.label(), run,
                r.mibPerSecond(), r.msgsPerSecond(), r.serverCpuPercent(), r.serverCpuUsPerMsg(),
                r.clientCpuPercent(), r.clientReadsPerMsg(),
                mode == Mode.PING_PONG ? "  p50 " + r.latencyPercentileUs(50) + " us  p99 "
                        + r.latencyPercentileUs(99) + " us" : "");
    }

    private List<String> serverCommand(ServerRow row, Path keystore, String password, boolean pin) {
        List<String> cmd = Taskset.prefix(pin, options.serverCpus());
        cmd.add(OptionChecks.javaOrThis(null));
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

    /** A started server row, its address and log; {@code failed} once one of its runs failed (runner thread). */
    private static final class LiveServer {
        final ServerRow row;
        final ServerProcess process;
        final InetSocketAddress address;
        final Path log;
        boolean failed;

        LiveServer(ServerRow row, ServerProcess process, InetSocketAddress address, Path log) {
            this.row = row;
            this.process = process;
            this.address = address;
            this.log = log;
        }
    }
}
