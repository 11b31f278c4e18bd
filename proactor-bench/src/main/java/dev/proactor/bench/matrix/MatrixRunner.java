package dev.proactor.bench.matrix;

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

/**
 * Walks the table: for each row, each run, each server (the order rotates between runs so no
 * server always goes first), start the pinned server, wait for its ready line, run the pinned
 * load generator, record the result and stop the server.
 */
public final class MatrixRunner {
    /** Seconds per run spent outside warm-up and measurement (JVM start, connect, stop). */
    static final double OVERHEAD_SECONDS = 1.0;
    /** Extra seconds per 1000 sessions for connecting and the first echo of every session. */
    static final double SECONDS_PER_1000_SESSIONS = 1.0;

    private final MatrixOptions options;
    private final Launcher launcher;
    private final ProcessRegistry registry;
    private final ResultsCsv csv;
    private final Path logs;
    private final MatrixOutcome outcome;
    private final ReportListener listener;

    /** Called after every row so the report on disk stays current. */
    @FunctionalInterface
    public interface ReportListener {
        /**
         * A row is complete.
         *
         * @param outcome everything so far
         * @throws IOException when the report cannot be written
         */
        void rowDone(MatrixOutcome outcome) throws IOException;
    }

    /**
     * Creates the runner.
     *
     * @param options  matrix options
     * @param launcher command lines
     * @param registry live-process registry
     * @param csv      results.csv
     * @param logs     directory for per-run logs
     * @param outcome  collects results; may already hold pre-flight skips
     * @param listener report writer
     */
    public MatrixRunner(MatrixOptions options, Launcher launcher, ProcessRegistry registry, ResultsCsv csv,
                        Path logs, MatrixOutcome outcome, ReportListener listener) {
        this.options = options;
        this.launcher = launcher;
        this.registry = registry;
        this.csv = csv;
        this.logs = logs;
        this.outcome = outcome;
        this.listener = listener;
    }

    /**
     * Runs the whole table.
     *
     * @throws IOException          when results cannot be written
     * @throws InterruptedException when interrupted
     */
    public void run() throws IOException, InterruptedException {
        List<Row> rows = options.rows();
        Progress progress = new Progress(estimatedSeconds(options, 1) / Math.max(1, rows.size() * options.runs()));
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            for (int run = 1; run <= options.runs(); run++) {
                for (ServerDefinition server : rotate(active(), r + run - 1)) {
                    if (outcome.isSkipped(server.name())) {
                        continue; // skipped earlier in this row
                    }
                    progress.step(r, rows.size(), row, server.name(), run, options.runs(), remaining(r, run, server));
                    runOnce(progress, r, row, server, run);
                }
            }
            listener.rowDone(outcome);
        }
        progress.note("matrix done in " + progress.elapsed() + ": " + outcome.records().size() + " runs, "
                + outcome.failures().size() + " failed, " + outcome.skipped().size() + " servers skipped");
    }

    /**
     * Rough duration of the whole table.
     *
     * @param options matrix options
     * @param servers servers that will run
     * @return seconds
     */
    static double estimatedSeconds(MatrixOptions options, int servers) {
        double total = 0;
        for (Row r : options.rows()) {
            total += options.warmup() + options.seconds() + OVERHEAD_SECONDS
                    + SECONDS_PER_1000_SESSIONS * r.sessions() / 1000.0;
        }
        return total * options.runs() * servers;
    }

    private List<ServerDefinition> active() {
        List<ServerDefinition> out = new ArrayList<>();
        for (ServerDefinition s : options.servers()) {
            if (!outcome.isSkipped(s.name())) {
                out.add(s);
            }
        }
        return out;
    }

    private static List<ServerDefinition> rotate(List<ServerDefinition> servers, int by) {
        List<ServerDefinition> out = new ArrayList<>(servers);
        if (!out.isEmpty()) {
            Collections.rotate(out, -(by % out.size()));
        }
        return out;
    }

    private int remaining(int rowIndex, int run, ServerDefinition current) {
        int perRound = active().size();
        int rowsLeft = options.rows().size() - rowIndex - 1;
        int runsLeftInRow = options.runs() - run + 1;
        return rowsLeft * options.runs() * perRound + runsLeftInRow * perRound - positionOf(current, rowIndex, run);
    }

    private int positionOf(ServerDefinition server, int rowIndex, int run) {
        return rotate(active(), rowIndex + run - 1).indexOf(server);
    }

    private void runOnce(Progress progress, int rowIndex, Row row, ServerDefinition server, int run)
            throws IOException, InterruptedException {
        String stem = String.format("row%02d-%s-run%d", rowIndex + 1, server.name(), run);
        Path serverLog = logs.resolve(stem + ".server.log");
        int port = Ports.free(options.host());
        ServerProcess sp;
        try {
            sp = ServerProcess.start(launcher.serverCommand(server, row, port), serverLog, registry);
        } catch (IOException e) {
            fail(progress, server, row, run, "cannot start server: " + e);
            return;
        }
        try {
            ServerProcess.Readiness ready = sp.awaitReady(options.readyTimeout());
            if (!ready.ready()) {
                if (ready.exitCode() == PrerequisiteException.EXIT_CODE) {
                    outcome.skip(server.name(), ready.reason());
                    progress.problem("SKIPPING " + server.name() + " from now on: " + ready.reason());
                } else {
                    fail(progress, server, row, run, "server not ready: " + ready.reason());
                }
                return;
            }
            int timeout = options.readyTimeout() + options.warmup() + options.seconds() + 30;
            try {
                LoadResult result = LoadgenRun.run(launcher.loadgenCommand(row, port, sp.pid()),
                        logs.resolve(stem + ".loadgen.log"), timeout, registry);
                RunRecord rec = new RunRecord(server.name(), row, run, result);
                outcome.add(rec);
                csv.append(rec);
                progress.result(result);
            } catch (RunFailure e) {
                String serverState = sp.isAlive() ? "" : " [server exited with code " + sp.exitValue()
                        + ": " + LogTail.reason(serverLog) + "]";
                fail(progress, server, row, run, e.getMessage() + serverState);
            }
        } finally {
            sp.stop();
        }
    }

    private void fail(Progress progress, ServerDefinition server, Row row, int run, String why) {
        String text = server.name() + " run " + run + " at " + row.describe() + ": " + why;
        outcome.fail(text);
        progress.problem("FAILED: " + why);
    }
}
