package dev.proactor.bench.costs;

import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.LoggedProcess;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import dev.proactor.bench.harness.Taskset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code perf stat -x, --per-thread} on a running server for a fixed number of seconds ({@code -- sleep S}),
 * pinned with the load generator so that it takes no time from the server's CPU.
 */
public final class PerfStat {
    private final String perf;
    private final List<String> events;
    private final boolean pinning;
    private final String cpus;

    /**
     * Creates the runner.
     *
     * @param perf    the perf executable
     * @param events  the events to count (those this kernel has)
     * @param pinning whether to pin perf
     * @param cpus    taskset CPU list for perf
     */
    public PerfStat(String perf, List<String> events, boolean pinning, String cpus) {
        this.perf = perf;
        this.events = List.copyOf(events);
        this.pinning = pinning;
        this.cpus = cpus;
    }

    /**
     * The events counted.
     *
     * @return the event names
     */
    public List<String> events() {
        return events;
    }

    /**
     * The command line.
     *
     * @param pid     the server's process id
     * @param seconds how long to count
     * @param output  the file perf writes its counts to
     * @return the command
     */
    public List<String> command(long pid, int seconds, Path output) {
        List<String> cmd = new ArrayList<>(Taskset.prefix(pinning, cpus));
        cmd.addAll(List.of(perf, "stat", "-x,", "--per-thread", "-e", String.join(",", events),
                "-p", Long.toString(pid), "-o", output.toString(), "--", "sleep", Integer.toString(seconds)));
        return cmd;
    }

    /**
     * Counts the server's events for {@code seconds}.
     *
     * @param pid      the server's process id
     * @param seconds  how long to count
     * @param log      log of perf's command line and stderr; the counts go to {@code log + ".csv"}
     * @param registry live-process registry
     * @return the counts
     * @throws RunFailure           when perf fails or its output cannot be read
     * @throws InterruptedException when interrupted
     */
    public PerfSample count(long pid, int seconds, Path log, ProcessRegistry registry)
            throws RunFailure, InterruptedException {
        Path csv = log.resolveSibling(log.getFileName() + ".csv");
        Process p = LoggedProcess.start("perf", command(pid, seconds, csv), log, registry);
        try {
            if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new RunFailure("perf stat did not finish within " + (seconds + 30) + " s (log: " + log + ")");
            }
        } finally {
            registry.remove(p);
        }
        if (p.exitValue() != 0) {
            throw new RunFailure("perf stat exited with code " + p.exitValue() + ": " + LogTail.reason(log)
                    + " (log: " + log + ")");
        }
        try {
            return PerfSample.parse(Files.readAllLines(csv, StandardCharsets.UTF_8), events);
        } catch (IOException e) {
            throw new RunFailure("cannot read perf output " + csv + ": " + e);
        } catch (IllegalArgumentException e) {
            throw new RunFailure(e.getMessage() + " (" + csv + ")");
        }
    }
}
