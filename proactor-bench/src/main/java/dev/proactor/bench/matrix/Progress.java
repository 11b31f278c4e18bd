package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Durations;
import java.util.Locale;

/** Progress lines on stderr: {@code [row i/n] server run k/N elapsed 00:42 eta 02:10}. */
public final class Progress {
    private final long start = System.nanoTime();
    private final double estimatedRunSeconds;
    private int completed;

    Progress(double estimatedRunSeconds) {
        this.estimatedRunSeconds = estimatedRunSeconds;
    }

    void step(int rowIndex, int rowCount, Row row, String server, int run, int runs, int remainingRuns) {
        double elapsed = elapsedSeconds();
        double perRun = completed == 0 ? estimatedRunSeconds : elapsed / completed;
        System.err.printf(Locale.ROOT, "[row %d/%d] %s run %d/%d elapsed %s eta %s   (%s)%n",
                rowIndex + 1, rowCount, server, run, runs, Durations.clock(elapsed),
                Durations.clock(perRun * remainingRuns), row.describe());
    }

    void result(LoadResult r) {
        completed++;
        System.err.printf(Locale.ROOT,
                "    %.1f MB/s  %.0f msg/s  p50 %.1f us  p99 %.1f us  p99.9 %.1f us  cpu client %.0f%% server %.0f%% other %.0f%%%n",
                r.bytesPerS() / 1e6, r.msgsPerS(), r.p50Us(), r.p99Us(), r.p999Us(), r.clientCpuPct(), r.serverCpuPct(),
                r.otherCpuPct());
        SessionFairness f = r.fairness();
        if (f.known()) {
            System.err.printf(Locale.ROOT, "    msgs/session min %.0f median %.0f max %.0f max/min %s%s%n", f.min(),
                    f.median(), f.max(), SessionFairness.ratioText(f.maxOverMin()),
                    f.idle() > 0 ? "  (" + f.idle() + " sessions completed nothing)" : "");
        }
    }

    void problem(String message) {
        completed++;
        System.err.println("    " + message);
    }

    void note(String message) {
        System.err.println(message);
    }

    String elapsed() {
        return Durations.clock(elapsedSeconds());
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
