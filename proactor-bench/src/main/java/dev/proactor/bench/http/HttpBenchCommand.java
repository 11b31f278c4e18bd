package dev.proactor.bench.http;

import dev.proactor.bench.harness.Durations;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.Taskset;
import dev.proactor.bench.server.PrerequisiteException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code http-bench} subcommand: parse, check wrk and the servers' prerequisites, create the
 * document root, run, write {@code http-results.csv} and {@code http-results.md}.
 */
public final class HttpBenchCommand {
    private static final int EXIT_FAILURE = 1;

    private HttpBenchCommand() {
    }

    /**
     * Runs the benchmark.
     *
     * @param options the parsed command line
     * @param layout  the repository layout
     * @param argv    the arguments after {@code http-bench}, for the report
     * @return process exit code: 0 when at least one run was measured, 3 when wrk is missing
     */
    static int run(HttpBenchOptions options, RepoLayout layout, String[] argv) {
        try {
            return checkAndMeasure(options, layout, argv);
        } catch (IOException e) {
            System.err.println("http-bench: " + e);
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("http-bench: interrupted");
            return EXIT_FAILURE;
        }
    }

    private static int checkAndMeasure(HttpBenchOptions options, RepoLayout layout, String[] argv)
            throws IOException, InterruptedException {
        HttpLauncher launcher = new HttpLauncher(options, layout, options.pin() && Taskset.find());
        if (options.pin() && !launcher.pinning()) {
            System.err.println("http-bench: WARNING taskset not found, servers and wrk run unpinned");
        }
        HttpOutcome outcome = new HttpOutcome();
        for (HttpServerDefinition s : options.servers()) {
            launcher.missingFiles(s).ifPresent(reason -> outcome.skip(s.name(), reason));
        }
        NginxBinary nginx = probeNginx(options, outcome);
        Optional<Path> wrk = Executables.find(options.wrk());
        printPlan(options, outcome);
        if (options.dryRun()) {
            printDryRun(options, launcher, wrk.orElse(Path.of(options.wrk())));
            return 0;
        }
        if (wrk.isEmpty()) {
            System.err.println("http-bench: SKIPPED, nothing measured: wrk not found ('" + options.wrk()
                    + "'; install it, e.g. apt-get install wrk, or pass --wrk PATH)");
            return PrerequisiteException.EXIT_CODE;
        }
        Path logs = options.out().resolve("logs");
        Files.createDirectories(logs);
        Path nginxDir = nginx == null ? null : TempDirs.create("proactor-http-bench-nginx");
        try (BenchDocRoot docRoot = BenchDocRoot.create(options.sizes())) {
            HttpEnvironment env = new HttpEnvironment(docRoot, wrk.get(), nginx, nginxDir);
            return measure(options, launcher, env, logs, outcome, argv);
        } finally {
            if (nginxDir != null) {
                TempDirs.delete(nginxDir);
            }
        }
    }

    private static int measure(HttpBenchOptions options, HttpLauncher launcher, HttpEnvironment env, Path logs,
                               HttpOutcome outcome, String[] argv) throws IOException, InterruptedException {
        HttpResultsCsv csv = new HttpResultsCsv(options.out().resolve("http-results.csv"));
        HttpResultsMarkdown markdown = new HttpResultsMarkdown(options,
                HttpRunContext.describe(options, launcher, env, argv));
        Path md = options.out().resolve("http-results.md");
        HttpBenchRunner runner = new HttpBenchRunner(options, launcher, env, new ProcessRegistry(), csv, logs,
                outcome, o -> markdown.write(md, o, false));
        runner.run();
        markdown.write(md, outcome, true);
        System.err.println("results: " + options.out().resolve("http-results.csv") + ", " + md + "; logs in " + logs);
        if (outcome.records().isEmpty()) {
            System.err.println("http-bench: nothing was measured");
            return EXIT_FAILURE;
        }
        return 0;
    }

    private static NginxBinary probeNginx(HttpBenchOptions options, HttpOutcome outcome) throws InterruptedException {
        boolean wanted = options.servers().stream().anyMatch(s -> s.kind() == HttpServerDefinition.Kind.NGINX);
        if (!wanted) {
            return null;
        }
        try {
            return NginxBinary.probe(options.nginx());
        } catch (IOException e) {
            outcome.skip("nginx", e.getMessage());
            return null;
        }
    }

    private static void printPlan(HttpBenchOptions o, HttpOutcome outcome) {
        int servers = (int) o.servers().stream().filter(s -> !outcome.isSkipped(s.name())).count();
        System.err.printf(Locale.ROOT, "http-bench: %d size(s) x %d server(s) x %d run(s) of %d s + %d s warm-up (%d wave(s)), "
                        + "%d connections, estimated %s; output %s%n", o.sizes().size(), servers, o.runs(), o.seconds(),
                o.warmupSeconds(), o.warmupWaves(), o.connections(), Durations.clock(o.estimatedSeconds(servers)),
                o.out());
        for (var e : outcome.skipped().entrySet()) {
            System.err.println("http-bench: skipping " + e.getKey() + ": " + e.getValue());
        }
    }

    private static void printDryRun(HttpBenchOptions o, HttpLauncher launcher, Path wrk) {
        FileSize first = o.sizes().get(0);
        Path root = Path.of("DOCROOT");
        for (HttpServerDefinition s : o.servers()) {
            Path conf = s.kind() == HttpServerDefinition.Kind.NGINX ? o.out().resolve("logs").resolve("X.nginx.conf")
                    : null;
            System.out.println(s.name() + ": " + String.join(" ", launcher.serverCommand(s, 0, root, conf)));
        }
        List<String> wrkCmd = launcher.wrkCommand(wrk, 0, first, o.seconds());
        System.out.println("wrk: " + String.join(" ", wrkCmd));
    }
}
