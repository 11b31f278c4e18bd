package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Durations;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.Taskset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The {@code matrix} subcommand: parse, check prerequisites, run, write CSV, Markdown and charts. */
public final class MatrixCommand {
    private static final int EXIT_FAILURE = 1;

    private MatrixCommand() {
    }

    /**
     * Runs the matrix.
     *
     * @param options the parsed command line
     * @param layout  the repository layout
     * @param argv    the arguments after {@code matrix}, for the report
     * @return process exit code (0 when at least one run was measured)
     */
    static int run(MatrixOptions options, RepoLayout layout, String[] argv) {
        try {
            return measure(options, layout, argv);
        } catch (IOException e) {
            System.err.println("matrix: " + e);
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("matrix: interrupted");
            return EXIT_FAILURE;
        }
    }

    private static int measure(MatrixOptions options, RepoLayout layout, String[] argv)
            throws IOException, InterruptedException {
        Launcher launcher = new Launcher(options, layout, Taskset.find());
        if (!Files.isExecutable(launcher.loadgen())) {
            System.err.println("matrix: load generator not found at " + launcher.loadgen()
                    + "; build it with `mvn -pl proactor-bench package` (needs gcc) or pass --native-dir");
            return EXIT_FAILURE;
        }
        if (options.pin() && !launcher.pinning()) {
            System.err.println("matrix: WARNING taskset not found, server and load generator run unpinned");
        }
        MatrixOutcome outcome = new MatrixOutcome();
        for (ServerDefinition s : options.servers()) {
            Optional<String> missing = launcher.missingFiles(s);
            missing.ifPresent(reason -> outcome.skip(s.name(), reason));
        }
        printPlan(options, outcome, argv);
        if (options.dryRun()) {
            printDryRun(options, launcher);
            return 0;
        }
        Path logs = options.out().resolve("logs");
        Files.createDirectories(logs);
        ResultsCsv csv = new ResultsCsv(options.out().resolve("results.csv"), options.disturbed());
        ResultsMarkdown markdown = new ResultsMarkdown(options, RunContext.describe(options, launcher, argv));
        Path md = options.out().resolve("results.md");
        MatrixRunner runner = new MatrixRunner(options, launcher, new ProcessRegistry(), csv, logs, outcome,
                o -> markdown.write(md, o, null));
        runner.run();
        List<String> charts = writeCharts(options, outcome);
        markdown.write(md, outcome, charts);
        System.err.println("results: " + options.out().resolve("results.csv") + ", " + md
                + (charts.isEmpty() ? "" : ", " + charts.size() + " chart(s)") + "; logs in " + logs);
        if (outcome.records().isEmpty()) {
            System.err.println("matrix: nothing was measured");
            return EXIT_FAILURE;
        }
        return 0;
    }

    private static List<String> writeCharts(MatrixOptions options, MatrixOutcome outcome) {
        try {
            return new Charts(options.out(), options.servers(), outcome, options.disturbed()).writeAll(options.rows());
        } catch (IOException | RuntimeException | LinkageError e) {
            System.err.println("matrix: charts could not be written: " + e);
            outcome.fail("charts could not be written: " + e);
            return new ArrayList<>();
        }
    }

    private static void printPlan(MatrixOptions o, MatrixOutcome outcome, String[] argv) {
        int servers = 0;
        for (ServerDefinition s : o.servers()) {
            if (!outcome.isSkipped(s.name())) {
                servers++;
            }
        }
        double total = MatrixRunner.estimatedSeconds(o, servers);
        System.err.printf(Locale.ROOT, "matrix: %s, %d rows x %d servers x %d run(s) of %d s + %d s warm-up, "
                        + "estimated %s; output %s%n", RunContext.hasTableOptions(argv) ? "custom table"
                        : o.preset().name().toLowerCase(Locale.ROOT) + " preset", o.rows().size(),
                servers, o.runs(), o.seconds(), o.warmup(), Durations.clock(total), o.out());
        for (var e : outcome.skipped().entrySet()) {
            System.err.println("matrix: skipping " + e.getKey() + ": " + e.getValue());
        }
        if (o.disturbed()) {
            System.err.println("matrix: --disturbed: results.md says other work ran and flags every row");
        } else {
            System.err.println("matrix: " + ResultsMarkdown.QUIET_RULE);
        }
        if (o.runs() < RunContext.PUBLISH_RUNS) {
            System.err.println("matrix: " + o.runs() + " run(s) per point: a smoke test; publish with --runs "
                    + RunContext.PUBLISH_RUNS + " or more");
        }
    }

    private static void printDryRun(MatrixOptions o, Launcher launcher) {
        for (int i = 0; i < o.rows().size(); i++) {
            System.out.printf(Locale.ROOT, "row %d: %s%n", i + 1, o.rows().get(i).describe());
        }
        Row first = o.rows().get(0);
        for (ServerDefinition s : o.servers()) {
            System.out.println(s.name() + ": " + String.join(" ", launcher.serverCommand(s, first, 0)));
        }
        System.out.println("loadgen: " + String.join(" ", launcher.loadgenCommand(first, 0, 0)));
    }
}
