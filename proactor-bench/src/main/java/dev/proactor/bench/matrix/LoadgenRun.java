package dev.proactor.bench.matrix;

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

/** Runs the load generator once and returns its RESULT. */
public final class LoadgenRun {
    private LoadgenRun() {
    }

    /**
     * Runs the command and parses its RESULT line.
     *
     * @param command        loadgen command line
     * @param log            log for its stderr (stdout goes to {@code log + ".out"})
     * @param timeoutSeconds kill it after this long
     * @param registry       live-process registry
     * @return the result
     * @throws RunFailure           when it fails, times out or prints no RESULT
     * @throws InterruptedException when interrupted
     */
    public static LoadResult run(List<String> command, Path log, int timeoutSeconds, ProcessRegistry registry)
            throws RunFailure, InterruptedException {
        Path stdout = LoggedProcess.stdoutOf(log);
        Process p = LoggedProcess.start("loadgen", command, log, registry);
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new RunFailure("loadgen did not finish within " + timeoutSeconds + " s (log: " + log + ")");
            }
        } finally {
            registry.remove(p);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RunFailure("cannot read loadgen output " + stdout + ": " + e);
        }
        if (p.exitValue() != 0) {
            throw new RunFailure("loadgen exited with code " + p.exitValue() + ": " + LogTail.reason(log)
                    + " (log: " + log + ")");
        }
        for (String line : lines) {
            if (line.startsWith(LoadResult.PREFIX)) {
                try {
                    return LoadResult.parse(line);
                } catch (IllegalArgumentException e) {
                    throw new RunFailure(e.getMessage());
                }
            }
        }
        throw new RunFailure("loadgen printed no RESULT line (output: " + stdout + ")");
    }
}
