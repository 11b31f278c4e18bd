package dev.proactor.bench.costs;

import dev.proactor.bench.harness.Durations;
import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.Ports;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import dev.proactor.bench.harness.ServerProcess;
import dev.proactor.bench.matrix.Launcher;
import dev.proactor.bench.matrix.LoadResult;
import dev.proactor.bench.matrix.LoadgenRun;
import dev.proactor.bench.matrix.Row;
import dev.proactor.bench.matrix.ServerDefinition;
import dev.proactor.bench.server.PrerequisiteException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Runs the plan ({@link RunOrder}): for each run, start the pinned server, start the pinned load generator, wait
 * until its warm-up starts, attach perf (events off) during the warm-up, switch counting on half the margin into
 * the generator's measured window and off {@code --window} seconds later, then read the generator's result and
 * stop the server. Round 1's saturation runs of a row settle its fixed rate.
 */
public final class CostsRunner {
    /** Seconds per run outside warm-up and measurement: JVM start, connecting, stopping. */
    static final double OVERHEAD_SECONDS = 1.0;
    /** Extra seconds per 1000 sessions for connecting and every session's first echo. */
    static final double SECONDS_PER_1000_SESSIONS = 0.3;

    private final CostsOptions options;
    private final Launcher launcher;
    private final PerfStat perf;
    private final ProcessRegistry registry;
    private final CostsCsv csv;
    private final Path logs;
    private final CostsOutcome outcome;
    private final FixedRates rates;
    private final Runnable roundDone;

    /**
     * Creates the runner.
     *
     * @param options   the options
     * @param launcher  the matrix's command lines
     * @param perf      perf stat with the events this kernel has
     * @param registry  live-process registry
     * @param csv       results.csv
     * @param logs      directory of the per-run logs
     * @param outcome   collects the runs
     * @param roundDone called after each row of each round (to rewrite the summary); must not throw
     */
    public CostsRunner(CostsOptions options, Launcher launcher, PerfStat perf, ProcessRegistry registry, CostsCsv csv,
                       Path logs, CostsOutcome outcome, Runnable roundDone) {
        this.options = options;
        this.launcher = launcher;
        this.perf = perf;
        this.registry = registry;
        this.csv = csv;
        this.logs = logs;
        this.outcome = outcome;
        this.rates = new FixedRates(options.rate());
        this.roundDone = roundDone;
    }

    /**
     * Rough duration of the whole plan.
     *
     * @param options the options
     * @param servers servers that will run
     * @return seconds
     */
    static double estimatedSeconds(CostsOptions options, int servers) {
        double total = 0;
        for (Row r : options.rows()) {
            total += options.warmup() + options.loadgenSeconds() + OVERHEAD_SECONDS
                    + SECONDS_PER_1000_SESSIONS * r.sessions() / 1000.0;
        }
        return total * options.rounds() * servers * Mode.values().length;
    }

    /**
     * Runs every step of the plan.
     *
     * @throws IOException          when results.csv cannot be written
     * @throws InterruptedException when interrupted
     */
    public void run() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        options.servers().forEach(s -> names.add(s.name()));
        List<RunOrder.Step> plan = RunOrder.plan(options.rounds(), options.rows().size(), names);
        long start = System.nanoTime();
        int done = 0;
        int lastRow = -1;
        for (RunOrder.Step step : plan) {
            done++;
            if (lastRow >= 0 && lastRow != step.rowIndex()) {
                roundDone.run();
            }
            lastRow = step.rowIndex();
            if (outcome.isSkipped(step.server())) {
                continue;
            }
            Row row = options.rows().get(step.rowIndex());
            long rate = 0;
            if (step.mode() == Mode.FIXED) {
                OptionalLong r = settle(step.rowIndex());
                if (r.isEmpty()) {
                    continue; // no saturation run of round 1 succeeded: no rate to offer
                }
                rate = r.getAsLong();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            System.err.printf(Locale.ROOT, "[%d/%d] round %d sessions=%d %s%s %s  elapsed %s eta %s%n", done,
                    plan.size(), step.round(), row.sessions(), step.mode().label(),
                    rate > 0 ? " " + rate + " msgs/s" : "", step.server(), Durations.clock(elapsed),
                    Durations.clock(done > 1 ? elapsed / (done - 1) * (plan.size() - done + 1)
                            : estimatedSeconds(options, names.size()) * (plan.size() - done + 1) / plan.size()));
            runOnce(step, row, options.servers().stream().filter(d -> d.name().equals(step.server())).findFirst()
                    .orElseThrow(), rate);
        }
        roundDone.run();
        System.err.printf(Locale.ROOT, "costs done in %s: %d runs, %d failed, %d servers skipped%n",
                Durations.clock((System.nanoTime() - start) / 1e9), outcome.records().size(),
                outcome.failures().size(), outcome.skipped().size());
    }

    private OptionalLong settle(int rowIndex) {
        List<Double> saturations = new ArrayList<>();
        for (CostsRecord r : outcome.records()) {
            if (r.round() == 1 && r.rowIndex() == rowIndex && r.mode() == Mode.SATURATION) {
                saturations.add(r.load().msgsPerS());
            }
        }
        OptionalLong rate = rates.settle(rowIndex, saturations);
        if (rate.isPresent() && outcome.rateOf(rowIndex).isEmpty()) {
            outcome.rate(rowIndex, rate.getAsLong());
            System.err.println("    fixed rate of sessions=" + options.rows().get(rowIndex).sessions() + ": "
                    + rate.getAsLong() + " msgs/s" + (rates.given() ? " (--rate)"
                    : " (half the lowest round-1 saturation)"));
        }
        return rate;
    }

    private void runOnce(RunOrder.Step step, Row row, ServerDefinition server, long rate)
            throws IOException, InterruptedException {
        String stem = String.format(Locale.ROOT, "round%d-s%d-%s-%s", step.round(), row.sessions(),
                step.mode().label(), server.name());
        Path serverLog = logs.resolve(stem + ".server.log");
        int port = Ports.free(options.host());
        ServerProcess sp;
        try {
            sp = ServerProcess.start(launcher.serverCommand(server, row, port), serverLog, registry);
        } catch (IOException e) {
            fail(step, row, "cannot start server: " + e);
            return;
        }
        try {
            ServerProcess.Readiness ready = sp.awaitReady(options.readyTimeout());
            if (!ready.ready()) {
                if (ready.exitCode() == PrerequisiteException.EXIT_CODE) {
                    outcome.skip(server.name(), ready.reason());
                    System.err.println("    SKIPPING " + server.name() + " from now on: " + ready.reason());
                } else {
                    fail(step, row, "server not ready: " + ready.reason());
                }
                return;
            }
            try {
                CostsRecord rec = measure(step, row, server, rate, sp, port, stem);
                outcome.add(rec);
                csv.append(rec);
                report(rec);
            } catch (RunFailure e) {
                String serverState = sp.isAlive() ? "" : " [server exited with code " + sp.exitValue()
                        + ": " + LogTail.reason(serverLog) + "]";
                fail(step, row, e.getMessage() + serverState);
            }
        } finally {
            sp.stop();
        }
    }

    private static void report(CostsRecord rec) {
        RunCosts c = rec.costs();
        System.err.printf(Locale.ROOT, "    %.0f msgs/s%s  CPU %.0f ns/msg  syscalls %.2f/msg  ctx %.3f/msg%s%n",
                rec.load().msgsPerS(), rec.saturated() ? " (SATURATED: outside 97-103 % of the offered rate)" : "",
                c.cpuNsPerMsg(), c.syscallsPerMsg(), c.ctxPerMsg(), c.entersPerMsg() > 0
                        ? String.format(Locale.ROOT, "  enters %.3f/msg  %.2f SQEs/enter", c.entersPerMsg(),
                        c.sqesPerEnter()) : "");
    }

    private CostsRecord measure(RunOrder.Step step, Row row, ServerDefinition server, long rate, ServerProcess sp,
                                int port, String stem) throws RunFailure, InterruptedException {
        List<String> cmd = new ArrayList<>(launcher.loadgenCommand(row, port, sp.pid()));
        cmd.addAll(options.loadgenExtras(rate));
        int timeout = options.readyTimeout() + options.warmup() + options.loadgenSeconds() + 30;
        LoadgenRun lg = LoadgenRun.start(cmd, logs.resolve(stem + ".loadgen.log"), registry);
        Counted counted = null;
        RunFailure perfFailure = null;
        if (lg.awaitWarmup(options.readyTimeout())) {
            try {
                counted = count(sp.pid(), System.nanoTime(), logs.resolve(stem + ".perf.log"));
            } catch (RunFailure e) {
                perfFailure = e;
            }
        }
        LoadResult result = lg.await(timeout);
        if (perfFailure != null) {
            throw perfFailure;
        }
        if (counted == null) {
            throw new RunFailure("the load generator's warm-up never started (log: " + stem + ".loadgen.log)");
        }
        return new CostsRecord(step.round(), step.rowIndex(), row, step.mode(), server.name(), rate, result,
                RunCosts.of(counted.sample(), result.msgsPerS(), counted.seconds()));
    }

    /** What perf counted and for how long. */
    private record Counted(PerfSample sample, double seconds) {
    }

    /**
     * Attaches perf during the warm-up and counts {@code window} seconds from half the margin into the generator's
     * measured window; checks that the counted interval lies inside it.
     *
     * @param pid  the server
     * @param seen when the generator's warm-up start was seen (at most one poll after it began)
     * @param log  perf's log
     */
    private Counted count(long pid, long seen, Path log) throws RunFailure, InterruptedException {
        long second = TimeUnit.SECONDS.toNanos(1);
        long windowStart = seen + options.warmup() * second;
        // the generator started its warm-up before we saw it: its window may end up to one poll (and its own
        // 10 ms sleep step) earlier than seen + warm-up + measured seconds
        long windowEnd = windowStart + options.loadgenSeconds() * second - TimeUnit.MILLISECONDS.toNanos(50);
        PerfStat.Counting perfRun = perf.start(pid, options.warmup() + options.loadgenSeconds() + 30, log, registry);
        try {
            sleepUntil(windowStart + CostsOptions.MARGIN_SECONDS * second / 2);
            long onAsked = System.nanoTime();
            long on = (onAsked + perfRun.enable()) / 2;
            sleepUntil(on + options.window() * second);
            long offAsked = System.nanoTime();
            long offAck = perfRun.disable();
            long off = (offAsked + offAck) / 2;
            if (onAsked < windowStart || offAck > windowEnd) {
                throw new RunFailure(String.format(Locale.ROOT, "perf counted from %.2f s to %.2f s after the "
                        + "generator's measured window began, outside its %d s (perf slow to attach or to answer: "
                        + "a busy machine?)", (onAsked - windowStart) / 1e9, (offAck - windowStart) / 1e9,
                        options.loadgenSeconds()));
            }
            return new Counted(perfRun.finish(), (off - on) / 1e9);
        } finally {
            perfRun.close();
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private void fail(RunOrder.Step step, Row row, String why) {
        outcome.fail(step.server() + " round " + step.round() + " sessions=" + row.sessions() + " "
                + step.mode().label() + ": " + why);
        System.err.println("    FAILED: " + why);
    }
}
