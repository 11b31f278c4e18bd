package dev.proactor.bench.http;

import dev.proactor.bench.matrix.LogTail;
import dev.proactor.bench.matrix.ProcessRegistry;
import dev.proactor.bench.matrix.RunFailure;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
        Path stdout = log.resolveSibling(log.getFileName() + ".out");
        Process p;
        try {
            Files.writeString(log, "$ " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            p = new ProcessBuilder(command)
                    .redirectOutput(stdout.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new RunFailure("cannot start wrk: " + e);
        }
        registry.add(p);
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
