package dev.proactor.bench.http;

import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.LoggedProcess;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One wrk process: started, then awaited; its output is kept in a log and parsed. */
final class WrkRun {
    private final Process process;
    private final Path log;
    private final Path stdout;
    private final ProcessRegistry registry;

    private WrkRun(Process process, Path log, Path stdout, ProcessRegistry registry) {
        this.process = process;
        this.log = log;
        this.stdout = stdout;
        this.registry = registry;
    }

    /**
     * Starts wrk.
     *
     * @param command  wrk command line
     * @param log      log file: the command and wrk's stderr; stdout goes to {@code log + ".out"}
     * @param registry live-process registry
     * @return the running wrk
     * @throws RunFailure when it cannot be started
     */
    static WrkRun start(List<String> command, Path log, ProcessRegistry registry) throws RunFailure {
        Path stdout = LoggedProcess.stdoutOf(log);
        Process p = LoggedProcess.start("wrk", command, log, registry);
        return new WrkRun(p, log, stdout, registry);
    }

    /**
     * The process ({@code taskset} executes wrk in place, so this is wrk).
     *
     * @return the process
     */
    Process process() {
        return process;
    }

    /**
     * Waits for wrk to finish and parses what it printed.
     *
     * @param timeoutSeconds kill it after this long
     * @return the result
     * @throws RunFailure           when wrk fails, times out or prints no usable result
     * @throws InterruptedException when interrupted
     */
    WrkResult await(int timeoutSeconds) throws RunFailure, InterruptedException {
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                throw new RunFailure("wrk did not finish within " + timeoutSeconds + " s (log: " + log + ")");
            }
        } finally {
            if (!process.isAlive()) {
                registry.remove(process); // else left for the registry's exit hook to kill
            }
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RunFailure("cannot read wrk output " + stdout + ": " + e);
        }
        if (process.exitValue() != 0) {
            String why = lines.isEmpty() ? LogTail.reason(log) : lines.get(lines.size() - 1).trim();
            throw new RunFailure("wrk exited with code " + process.exitValue() + ": " + why + " (output: " + stdout
                    + ")");
        }
        try {
            return WrkOutput.parse(lines);
        } catch (IllegalArgumentException e) {
            throw new RunFailure(e.getMessage() + " (output: " + stdout + ")");
        }
    }
}
