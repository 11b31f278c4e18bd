package dev.proactor.bench.http;

import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.Ports;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import dev.proactor.bench.harness.ServerProcess;
import dev.proactor.bench.server.PrerequisiteException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Walks the sizes: for each size, each run, each server (the order rotates between runs so no
 * server always goes first), start the pinned server, wait until it is ready, check one response
 * against the file, run an unmeasured wrk warm-up, run the measured wrk pinned to the client
 * CPUs while sampling the CPU use of the server, wrk and everything else, record the result and
 * stop the server.
 */
final class HttpBenchRunner {
    /** Seconds per run spent outside wrk (JVM start, response check, stop). */
    static final double OVERHEAD_SECONDS = 2.0;
    private static final int WRK_GRACE_SECONDS = 30;

    private final HttpBenchOptions options;
    private final HttpLauncher launcher;
    private final HttpEnvironment env;
    private final ProcessRegistry registry;
    private final HttpResultsCsv csv;
    private final Path logs;
    private final HttpOutcome outcome;
    private final SizeListener listener;
    private final ResponseCheck check = new ResponseCheck();

    /** Called after every size so the report on disk stays current. */
    @FunctionalInterface
    interface SizeListener {
        /**
         * A size is complete.
         *
         * @param outcome everything so far
         * @throws IOException when the report cannot be written
         */
        void sizeDone(HttpOutcome outcome) throws IOException;
    }

    HttpBenchRunner(HttpBenchOptions options, HttpLauncher launcher, HttpEnvironment env, ProcessRegistry registry,
                    HttpResultsCsv csv, Path logs, HttpOutcome outcome, SizeListener listener) {
        this.options = options;
        this.launcher = launcher;
        this.env = env;
        this.registry = registry;
        this.csv = csv;
        this.logs = logs;
        this.outcome = outcome;
        this.listener = listener;
    }

    /**
     * Runs every size, run and server.
     *
     * @throws IOException          when results cannot be written
     * @throws InterruptedException when interrupted
     */
    void run() throws IOException, InterruptedException {
        List<FileSize> sizes = options.sizes();
        int planned = sizes.size() * options.runs() * active().size();
        HttpProgress progress = new HttpProgress(options.warmupSeconds() + options.seconds() + OVERHEAD_SECONDS, planned);
        for (int i = 0; i < sizes.size(); i++) {
            FileSize size = sizes.get(i);
            byte[] content = env.docRoot().content(size);
            for (int run = 1; run <= options.runs(); run++) {
                for (HttpServerDefinition server : rotate(active(), i + run - 1)) {
                    if (outcome.isSkipped(server.name())) {
                        continue; // skipped earlier in this round
                    }
                    progress.step(i, sizes.size(), size, server.name(), run, options.runs());
                    runOnce(progress, size, content, server, run);
                }
            }
            listener.sizeDone(outcome);
        }
        System.err.println("http-bench done in " + progress.elapsed() + ": " + outcome.records().size() + " runs, "
                + outcome.failures().size() + " failed, " + outcome.problems().size() + " problem(s), "
                + outcome.skipped().size() + " server(s) skipped");
    }

    private List<HttpServerDefinition> active() {
        List<HttpServerDefinition> out = new ArrayList<>();
        for (HttpServerDefinition s : options.servers()) {
            if (!outcome.isSkipped(s.name())) {
                out.add(s);
            }
        }
        return out;
    }

    private static List<HttpServerDefinition> rotate(List<HttpServerDefinition> servers, int by) {
        List<HttpServerDefinition> out = new ArrayList<>(servers);
        if (!out.isEmpty()) {
            Collections.rotate(out, -(by % out.size()));
        }
        return out;
    }

    private void runOnce(HttpProgress progress, FileSize size, byte[] content, HttpServerDefinition server, int run)
            throws IOException, InterruptedException {
        String stem = String.format(Locale.ROOT, "%s-%s-run%d", size.label(), server.name(), run);
        Path serverLog = logs.resolve(stem + ".server.log");
        int port = Ports.free(options.host());
        Path nginxConfig = null;
        if (server.kind() == HttpServerDefinition.Kind.NGINX) {
            nginxConfig = NginxConfig.write(env.nginx(), logs.resolve(stem + ".nginx.conf"), env.nginxDir(),
                    options.host(), port, env.docRoot().dir(), options.threads(), options.connections());
        }
        ServerProcess sp;
        try {
            sp = ServerProcess.start(launcher.serverCommand(server, port, env.docRoot().dir(), nginxConfig),
                    serverLog, registry);
        } catch (IOException e) {
            fail(progress, server, size, run, "cannot start server: " + e);
            return;
        }
        try {
            if (!awaitReady(progress, size, run, server, sp, serverLog, port)) {
                return;
            }
            String url = launcher.url(port, size);
            Optional<String> wrong = check.verify(url, content);
            if (wrong.isPresent()) {
                fail(progress, server, size, run, "response check: " + wrong.get());
                return;
            }
            measure(progress, size, server, run, port, stem, sp, serverLog);
        } finally {
            sp.stop();
            ServerLogScan.problems(serverLog).ifPresent(p -> problem(progress, server, size, run, "server log: " + p));
        }
    }

    private boolean awaitReady(HttpProgress progress, FileSize size, int run, HttpServerDefinition server,
                               ServerProcess sp, Path serverLog, int port) throws InterruptedException {
        if (!server.printsReadyLine()) {
            Optional<String> notReady = PortProbe.awaitListening(sp, serverLog, options.host(), port,
                    options.readyTimeout());
            if (notReady.isPresent()) {
                skip(progress, server, "did not start: " + notReady.get());
                return false;
            }
            outcome.readyLine(server.name(), env.nginx().version() + ", worker_processes " + options.threads());
            return true;
        }
        ServerProcess.Readiness ready = sp.awaitReady(options.readyTimeout());
        if (ready.ready()) {
            outcome.readyLine(server.name(), ready.readyLine());
            return true;
        }
        if (ready.exitCode() == PrerequisiteException.EXIT_CODE) {
            skip(progress, server, ready.reason());
        } else {
            fail(progress, server, size, run, "server not ready: " + ready.reason());
        }
        return false;
    }

    private void measure(HttpProgress progress, FileSize size, HttpServerDefinition server, int run, int port,
                         String stem, ServerProcess sp, Path serverLog) throws IOException, InterruptedException {
        try {
            for (int wave = 1; options.warmup() > 0 && wave <= options.warmupWaves(); wave++) {
                String name = options.warmupWaves() == 1 ? ".warmup.log" : ".warmup" + wave + ".log";
                WrkResult warm = WrkRun.start(launcher.wrkCommand(env.wrk(), port, size, options.waveSeconds()),
                        logs.resolve(stem + name), registry).await(options.waveSeconds() + WRK_GRACE_SECONDS);
                if (warm.hasErrors()) {
                    problem(progress, server, size, run, "warm-up: wrk reported " + warm.describeErrors());
                }
            }
            WrkRun wrk = WrkRun.start(launcher.wrkCommand(env.wrk(), port, size, options.seconds()),
                    logs.resolve(stem + ".wrk.log"), registry);
            CpuMonitor.Usage cpu = cpu(sp, wrk);
            WrkResult result = wrk.await(options.seconds() + WRK_GRACE_SECONDS);
            HttpRecord rec = new HttpRecord(server.name(), size, run, result, cpu.serverPct(), cpu.clientPct(),
                    cpu.otherUserPct());
            outcome.add(rec);
            csv.append(rec);
            progress.result(rec);
            if (result.hasErrors()) {
                problem(progress, server, size, run, "wrk reported " + result.describeErrors());
            }
            if (result.bytesPerRequest() < 0.99 * size.bytes()) {
                problem(progress, server, size, run, String.format(Locale.ROOT,
                        "wrk read %.0f bytes per request, less than the file's %d", result.bytesPerRequest(),
                        size.bytes()));
            }
        } catch (RunFailure e) {
            String state = sp.isAlive() ? "" : " [server exited with code " + sp.exitValue() + ": "
                    + LogTail.reason(serverLog) + "]";
            fail(progress, server, size, run, e.getMessage() + state);
        }
    }

    private CpuMonitor.Usage cpu(ServerProcess sp, WrkRun wrk) throws InterruptedException {
        try {
            return CpuMonitor.measure(sp.pid(), wrk.process(), options.seconds());
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("    CPU use unknown for this run: " + e.getMessage());
            return CpuMonitor.Usage.UNKNOWN;
        }
    }

    private void skip(HttpProgress progress, HttpServerDefinition server, String reason) {
        outcome.skip(server.name(), reason);
        progress.failed("SKIPPING " + server.name() + " from now on: " + reason);
    }

    private void fail(HttpProgress progress, HttpServerDefinition server, FileSize size, int run, String why) {
        outcome.fail(server.name() + " size " + size.label() + " run " + run + ": " + why);
        progress.failed("FAILED: " + why);
    }

    private void problem(HttpProgress progress, HttpServerDefinition server, FileSize size, int run, String what) {
        outcome.problem(server.name() + " size " + size.label() + " run " + run + ": " + what);
        progress.note("PROBLEM: " + what);
    }
}
