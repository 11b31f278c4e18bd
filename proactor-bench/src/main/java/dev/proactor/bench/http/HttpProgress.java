package dev.proactor.bench.http;

import dev.proactor.bench.harness.Durations;
import java.util.Locale;

/** Progress lines on stderr: {@code [size 1k 1/3] netty-http run 1/2 (4/18) elapsed 00:42 eta 02:10}. */
final class HttpProgress {
    private final long start = System.nanoTime();
    private final double estimatedRunSeconds;
    private final int totalRuns;
    private int done;

    /**
     * Creates the progress printer.
     *
     * @param estimatedRunSeconds expected seconds per run, until one has finished
     * @param totalRuns           planned runs
     */
    HttpProgress(double estimatedRunSeconds, int totalRuns) {
        this.estimatedRunSeconds = estimatedRunSeconds;
        this.totalRuns = totalRuns;
    }

    void step(int sizeIndex, int sizeCount, FileSize size, String server, int run, int runs) {
        double elapsed = elapsedSeconds();
        double perRun = done == 0 ? estimatedRunSeconds : elapsed / done;
        System.err.printf(Locale.ROOT, "[size %s %d/%d] %s run %d/%d (%d/%d) elapsed %s eta %s%n", size.label(),
                sizeIndex + 1, sizeCount, server, run, runs, done + 1, totalRuns, Durations.clock(elapsed),
                Durations.clock(perRun * Math.max(0, totalRuns - done)));
    }

    void result(HttpRecord r) {
        done++;
        WrkResult x = r.result();
        System.err.printf(Locale.ROOT, "    %.0f req/s  %s MB/s  p50 %.0f us  p99 %.0f us  cpu server %.0f%% wrk %.0f%%"
                        + " other %.0f%%  errors: %s%n", x.requestsPerS(), HttpResultsMarkdown.mb(x.transferBytesPerS()),
                x.p50Us(), x.p99Us(), r.serverCpuPct(), r.clientCpuPct(), r.otherCpuPct(), x.describeErrors());
    }

    void failed(String message) {
        done++;
        System.err.println("    " + message);
    }

    void note(String message) {
        System.err.println("    " + message);
    }

    String elapsed() {
        return Durations.clock(elapsedSeconds());
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
