package dev.proactor.bench.costs;

import dev.proactor.bench.harness.ContextLines;
import dev.proactor.bench.harness.Durations;
import dev.proactor.bench.harness.MachineInfo;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.Taskset;
import dev.proactor.bench.matrix.Launcher;
import dev.proactor.bench.matrix.Row;
import dev.proactor.bench.matrix.ServerDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The {@code costs} subcommand: check loadgen and perf, print the plan, run it, write results.csv and summary.md. */
public final class CostsCommand {
    private static final int EXIT_FAILURE = 1;

    private CostsCommand() {
    }

    /**
     * Runs the costs benchmark.
     *
     * @param options the parsed command line
     * @param layout  the repository layout
     * @param argv    the arguments after {@code costs}, for the report
     * @return process exit code (0 when at least one run was measured, or for a dry run)
     */
    static int run(CostsOptions options, RepoLayout layout, String[] argv) {
        try {
            return measure(options, layout, argv);
        } catch (IOException e) {
            System.err.println("costs: " + e);
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("costs: interrupted");
            return EXIT_FAILURE;
        }
    }

    private static int measure(CostsOptions options, RepoLayout layout, String[] argv)
            throws IOException, InterruptedException {
        Launcher launcher = new Launcher(options.asMatrixOptions(), layout, Taskset.find());
        if (!Files.isExecutable(launcher.loadgen())) {
            System.err.println("costs: load generator not found at " + launcher.loadgen()
                    + "; build it with `mvn -pl proactor-bench package` (needs gcc) or pass --native-dir");
            return EXIT_FAILURE;
        }
        if (options.pin() && !launcher.pinning()) {
            System.err.println("costs: WARNING taskset not found, server and load generator run unpinned");
        }
        PerfEvents.Availability events = checkPerf(options.perf());
        if (events == null) {
            return EXIT_FAILURE;
        }
        CostsOutcome outcome = new CostsOutcome();
        List<String> names = new ArrayList<>();
        for (ServerDefinition s : options.servers()) {
            names.add(s.name());
            launcher.missingFiles(s).ifPresent(reason -> outcome.skip(s.name(), reason));
        }
        int servers = (int) names.stream().filter(n -> !outcome.isSkipped(n)).count();
        String plan = plan(options, servers);
        System.err.println("costs: " + plan + "; output " + options.out());
        outcome.skipped().forEach((s, why) -> System.err.println("costs: skipping " + s + ": " + why));
        if (!events.missing().isEmpty()) {
            System.err.println("costs: perf events missing here, skipped: " + String.join(", ", events.missing()));
        }
        if (options.dryRun()) {
            Row first = options.rows().get(0);
            for (ServerDefinition s : options.servers()) {
                System.out.println(s.name() + ": " + String.join(" ", launcher.serverCommand(s, first, 0)));
            }
            System.out.println("loadgen: " + String.join(" ", launcher.loadgenCommand(first, 0, 0))
                    + " [--rate R in fixed mode]" + (options.reconnect() ? " --reconnect" : ""));
            System.out.println("perf: " + String.join(" ", perfStat(options, events, launcher)
                    .command(0, options.warmup() + options.loadgenSeconds() + 30, Path.of("PERF.csv"),
                            Path.of("PERF.ctl"), Path.of("PERF.ack"))) + " (enable, disable through the FIFOs)");
            return 0;
        }
        Path logs = options.out().resolve("logs");
        Files.createDirectories(logs);
        CostsCsv csv = new CostsCsv(options.out().resolve("results.csv"));
        CostsSummary summary = new CostsSummary(context(options, launcher, argv, plan), options.rows(), names,
                events.missing());
        Path md = options.out().resolve("summary.md");
        CostsRunner runner = new CostsRunner(options, launcher, perfStat(options, events, launcher),
                new ProcessRegistry(), csv, logs, outcome, () -> {
                    try {
                        summary.write(md, outcome);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        try {
            runner.run();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        System.err.println("results: " + options.out().resolve("results.csv") + ", " + md + "; logs in " + logs);
        if (outcome.records().isEmpty()) {
            System.err.println("costs: nothing was measured");
            return EXIT_FAILURE;
        }
        return 0;
    }

    private static PerfStat perfStat(CostsOptions options, PerfEvents.Availability events, Launcher launcher) {
        return new PerfStat(options.perf(), events.present(), launcher.pinning(), options.clientCpus());
    }

    static String plan(CostsOptions o, int servers) {
        return String.format(Locale.ROOT, "%d round(s) x %d row(s) x %d server(s) x 2 modes = %d runs of %d s warm-up "
                        + "+ %d s measured (perf counts %d s inside), estimated %s", o.rounds(), o.rows().size(),
                servers, o.rounds() * o.rows().size() * servers * 2, o.warmup(), o.loadgenSeconds(), o.window(),
                Durations.clock(CostsRunner.estimatedSeconds(o, servers)));
    }

    /**
     * Which wanted events perf has, after checking that {@code perf stat} counts them as this user.
     *
     * @return the events, or null (with a message) when perf cannot count
     */
    private static PerfEvents.Availability checkPerf(String perf) throws InterruptedException {
        String list;
        try {
            list = output(List.of(perf, "list"));
        } catch (IOException e) {
            System.err.println("costs: cannot run `" + perf + " list` (" + e.getMessage() + "); install perf "
                    + "(linux-perf / linux-tools) or pass --perf PATH");
            return null;
        }
        PerfEvents.Availability a = PerfEvents.check(list);
        if (a.present().isEmpty()) {
            System.err.println("costs: `" + perf + " list` names none of the events " + PerfEvents.wanted());
            return null;
        }
        Path probe;
        try {
            probe = Files.createTempFile("costs-perf-probe", ".txt");
        } catch (IOException e) {
            System.err.println("costs: cannot create a temporary file: " + e);
            return null;
        }
        try {
            Process p = new ProcessBuilder(perf, "stat", "-x,", "-e", String.join(",", a.present()), "--", "true")
                    .redirectErrorStream(true).redirectOutput(probe.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.err.println("costs: `perf stat -- true` did not finish within 60 s");
                return null;
            }
            if (p.exitValue() != 0) {
                System.err.println("costs: perf stat cannot count as this user (kernel.perf_event_paranoid is "
                        + paranoid() + "; it needs <= 2, and tracefs readable for the tracepoints):\n"
                        + Files.readString(probe, StandardCharsets.UTF_8).strip());
                return null;
            }
        } catch (IOException e) {
            System.err.println("costs: cannot run perf stat: " + e);
            return null;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                System.err.println("costs: cannot delete " + probe + ": " + e);
            }
        }
        return a;
    }

    private static String paranoid() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
    }

    private static String output(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within 60 s");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<String> context(CostsOptions o, Launcher launcher, String[] argv, String plan)
            throws InterruptedException {
        List<String> lines = new ArrayList<>();
        lines.add("command: `java -jar proactor-bench/target/proactor-bench.jar costs " + commandLine(argv) + "`");
        lines.add(ContextLines.date());
        lines.add(ContextLines.machine());
        lines.add(launcher.pinning() ? "pinning: server (--threads 1) on CPU " + o.serverCpus()
                + ", load generator and perf on CPU " + o.clientCpus() + " (taskset)"
                : "pinning: none; server and client compete for CPUs");
        lines.add("server JVM: " + MachineInfo.javaVersion(o.java()) + " (" + o.java() + "), options `"
                + String.join(" ", o.jvmOptions()) + "`");
        lines.add("load generator: " + launcher.loadgen() + ", 1 thread, " + o.rows().get(0).blockText()
                + " ping-pong (window 0)"
                + (o.reconnect() ? ", every message on a new connection (--reconnect: a message is a connection"
                        + " accepted, echoed and closed)" : "") + "; " + plan);
        lines.add("perf: `perf stat -x, --per-thread -p SERVER`, attached during the warm-up, counting " + o.window()
                + " s from " + CostsOptions.MARGIN_SECONDS / 2.0 + " s into the load generator's measured window; its "
                + "tracepoints add their own cost to every system call, so compare servers within one run, not "
                + "with numbers taken without perf");
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
}
