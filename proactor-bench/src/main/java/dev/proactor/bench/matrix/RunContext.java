package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.ContextLines;
import dev.proactor.bench.harness.MachineInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The context lines at the top of results.md: when, where, which JVM, which command. */
final class RunContext {
    /** Runs per point a published table needs. */
    static final int PUBLISH_RUNS = 3;

    private RunContext() {
    }

    static List<String> describe(MatrixOptions o, Launcher launcher, String[] argv) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        lines.add(ContextLines.date());
        lines.add(ContextLines.machine());
        lines.add(launcher.pinning()
                ? "pinning: server on CPU " + o.serverCpus() + ", load generator on CPU " + o.clientCpus()
                + " (taskset); server and client share this machine, so absolute numbers are context only"
                : "pinning: none (" + (o.pin() ? "taskset not found" : "--no-pin") + "); server and client compete for CPUs");
        lines.add("server JVM: " + MachineInfo.javaVersion(o.java()) + " (" + o.java() + "), options `"
                + String.join(" ", o.jvmOptions()) + "`");
        lines.add("load generator: " + launcher.loadgen() + ", " + o.clientThreads() + " thread(s), epoll, "
                + (o.coalesce() ? "COALESCED writes (all whole blocks the window allows per write)"
                : "one write per block") + "; clock starts after every session had its first echo and the warm-up");
        lines.add(String.format(Locale.ROOT, "table: %s, %d rows x %d servers, %d run(s) of %d s after %d s warm-up%s",
                hasTableOptions(argv) ? "given on the command line"
                        : o.preset().name().toLowerCase(Locale.ROOT) + " preset",
                o.rows().size(), o.servers().size(), o.runs(), o.seconds(), o.warmup(),
                o.runs() < PUBLISH_RUNS ? " - fewer than " + PUBLISH_RUNS + " runs: a smoke test, not a table to "
                        + "publish (the tail and the fairness figures vary between runs)" : ""));
        lines.add("command: `java -jar proactor-bench.jar matrix " + commandLine(argv) + "`");
        return lines;
    }

    /** The arguments as a shell would need them: quoted when they hold blanks or quotes. */
    static String commandLine(String[] argv) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            out.add(a.isEmpty() || a.matches(".*[\\s'\"`$|;&<>()].*") ? "'" + a.replace("'", "'\\''") + "'" : a);
        }
        return String.join(" ", out);
    }

    static boolean hasTableOptions(String[] argv) {
        for (String a : argv) {
            if (a.matches("--(sessions|threads|block|window|delay)(=.*)?")) {
                return true;
            }
        }
        return false;
    }
}
