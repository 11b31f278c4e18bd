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

/**
 * Runs the load generator once and returns its RESULT: in one call ({@link #run}), or started ({@link #start}),
 * watched until its warm-up begins (to time something inside its measured window) and then awaited.
 */
public final class LoadgenRun {
    /** What the generator prints to stderr when every session had its first echo and the warm-up starts. */
    static final String WARMUP_MARK = "every session echoed after";

    private static final long POLL_MS = 20;

    private final Process process;
    private final Path log;
    private final ProcessRegistry registry;

    private LoadgenRun(Process process, Path log, ProcessRegistry registry) {
        this.process = process;
        this.log = log;
        this.registry = registry;
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
        return start(command, log, registry).await(timeoutSeconds);
    }

    /**
     * Starts the command; the caller then calls {@link #await} (which forgets the process in the registry).
     *
     * @param command  loadgen command line
     * @param log      log for its stderr (stdout goes to {@code log + ".out"})
     * @param registry live-process registry
     * @return the running generator
     * @throws RunFailure when it cannot be started
     */
    public static LoadgenRun start(List<String> command, Path log, ProcessRegistry registry) throws RunFailure {
        return new LoadgenRun(LoggedProcess.start("loadgen", command, log, registry), log, registry);
    }

    /**
     * Waits until the generator says every session had its first echo (its warm-up starts then; the measured
     * window follows the warm-up). Polls its log every 20 ms.
     *
     * @param timeoutSeconds how long to wait
     * @return true when the warm-up started; false when the generator ended or the time ran out first
     * @throws InterruptedException when interrupted
     */
    public boolean awaitWarmup(int timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            try {
                if (Files.readString(log, StandardCharsets.UTF_8).contains(WARMUP_MARK)) {
                    return true;
                }
            } catch (IOException e) {
                return false; // the log is ours: unreadable means something else failed; await() reports it
            }
            if (!process.isAlive()) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
        return false;
    }

    /**
     * Whether the generator is still running (it exits right after its measured window).
     *
     * @return true while it runs
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for the generator to end and parses its RESULT line.
     *
     * @param timeoutSeconds kill it after this long
     * @return the result
     * @throws RunFailure           when it fails, times out or prints no RESULT
     * @throws InterruptedException when interrupted
     */
    public LoadResult await(int timeoutSeconds) throws RunFailure, InterruptedException {
        Path stdout = LoggedProcess.stdoutOf(log);
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                throw new RunFailure("loadgen did not finish within " + timeoutSeconds + " s (log: " + log + ")");
            }
        } finally {
            registry.remove(process);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RunFailure("cannot read loadgen output " + stdout + ": " + e);
        }
        if (process.exitValue() != 0) {
            throw new RunFailure("loadgen exited with code " + process.exitValue() + ": " + LogTail.reason(log)
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
