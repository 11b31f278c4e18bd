package dev.proactor.bench.http;

import dev.proactor.bench.harness.Markdown;
import dev.proactor.bench.harness.Stats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code http-results.md}: the context, skipped servers, failed runs and problems, an overview of
 * median requests per second, then per size the median per server with its min-max spread,
 * transfer rate, latency, CPU, wrk errors and the ratio to netty-http measured in the same run.
 */
public final class HttpResultsMarkdown {
    /** wrk CPU share from which wrk may be the limit. */
    static final double CLIENT_BOUND_PCT = 90;
    /** Server CPU share from which the server counts as saturated. */
    static final double SERVER_BUSY_PCT = 90;
    /** User CPU of other processes from which a run counts as disturbed. */
    static final double OTHER_BUSY_PCT = 10;

    private final HttpBenchOptions options;
    private final List<String> context;

    /**
     * Creates the writer.
     *
     * @param options benchmark options
     * @param context lines describing the machine, tools and command (written as a list)
     */
    public HttpResultsMarkdown(HttpBenchOptions options, List<String> context) {
        this.options = options;
        this.context = List.copyOf(context);
    }

    /**
     * Writes the report.
     *
     * @param file     http-results.md
     * @param outcome  measurements so far
     * @param finished false while the benchmark is still running
     * @throws IOException when it cannot be written
     */
    public void write(Path file, HttpOutcome outcome, boolean finished) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# HTTP static file benchmark\n\n");
        if (!finished) {
            md.append("**In progress** - this file is rewritten after every size.\n\n");
        }
        Markdown.bullets(md, context);
        readyLines(md, outcome.readyLines());
        md.append('\n');
        md.append("Every run starts the server afresh, checks one response against the file, runs an unmeasured "
                + "wrk warm-up, then the measured wrk. Values are medians of the runs; spread is the min-max of "
                + "requests/s. MB/s is wrk's Transfer/sec (response heads included) in 10^6 bytes. Latency "
                + "percentiles are wrk's (--latency). CPU is sampled from /proc during the measurement, in percent "
                + "of one core: the server process with its children (nginx's workers), wrk, and the user time of "
                + "every other process on the machine (the worst run). ! after the wrk CPU marks "
                + (int) CLIENT_BOUND_PCT + " % or more while the server stayed below " + (int) SERVER_BUSY_PCT
                + " %: there wrk, not the server, is probably the limit; ! after the other CPU marks "
                + (int) OTHER_BUSY_PCT + " % or more: something else competed for the cores, rerun before drawing "
                + "conclusions. Errors are wrk's non-2xx/3xx responses plus socket errors, summed over the runs. "
                + "The ratio divides median requests/s by " + HttpServerCatalog.RATIO_BASELINE + "'s.\n\n");
        list(md, "Skipped servers", outcome.skipped().entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).toList());
        list(md, "Failed runs", outcome.failures());
        list(md, "Problems (wrk errors, server log warnings)", outcome.problems());
        overview(md, outcome);
        for (FileSize size : options.sizes()) {
            size(md, size, outcome);
        }
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }

    private static void readyLines(StringBuilder md, Map<String, String> lines) {
        for (Map.Entry<String, String> e : lines.entrySet()) {
            md.append("- ").append(e.getKey()).append(": `").append(e.getValue()).append("`\n");
        }
    }

    private static void list(StringBuilder md, String title, List<String> items) {
        Markdown.section(md, title, items.stream().map(item -> item.replace("\n", " ")).toList());
    }

    private void overview(StringBuilder md, HttpOutcome outcome) {
        md.append("## Overview: median requests/s\n\n| size |");
        StringBuilder sep = new StringBuilder("|---|");
        for (HttpServerDefinition s : options.servers()) {
            md.append(' ').append(s.name()).append(" |");
            sep.append("---:|");
        }
        md.append('\n').append(sep).append('\n');
        for (FileSize size : options.sizes()) {
            md.append("| ").append(size.label()).append(" |");
            for (HttpServerDefinition s : options.servers()) {
                List<HttpRecord> res = outcome.results(s.name(), size);
                md.append(' ').append(res.isEmpty() ? "-" : rps(requests(res).median())).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void size(StringBuilder md, FileSize size, HttpOutcome outcome) {
        md.append("## ").append(size.label()).append(" (").append(size.bytes()).append(" bytes)\n\n");
        md.append("| server | req/s | spread | MB/s | p50 ms | p99 ms | server CPU % | wrk CPU % | other CPU % "
                + "| errors | runs | x ").append(HttpServerCatalog.RATIO_BASELINE).append(" |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<HttpRecord> base = outcome.results(HttpServerCatalog.RATIO_BASELINE, size);
        boolean any = false;
        for (HttpServerDefinition s : options.servers()) {
            List<HttpRecord> res = outcome.results(s.name(), size);
            if (res.isEmpty()) {
                continue;
            }
            any = true;
            Stats rps = requests(res);
            double serverCpu = Stats.of(res, HttpRecord::serverCpuPct).median();
            double clientCpu = Stats.of(res, HttpRecord::clientCpuPct).median();
            double otherCpu = Stats.of(res, HttpRecord::otherCpuPct).max();
            long errors = 0;
            for (HttpRecord r : res) {
                errors += r.result().non2xx3xx() + r.result().socketErrors();
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %s-%s | %s | %s | %s | %s | %s%s | %s%s | %d | %d | %s |%n",
                    s.name(), rps(rps.median()), rps(rps.min()), rps(rps.max()),
                    mb(Stats.of(res, r -> r.result().transferBytesPerS()).median()),
                    millis(Stats.of(res, r -> r.result().p50Us()).median()),
                    millis(Stats.of(res, r -> r.result().p99Us()).median()),
                    percent(serverCpu), percent(clientCpu), clientBound(clientCpu, serverCpu) ? " !" : "",
                    percent(otherCpu), otherCpu >= OTHER_BUSY_PCT ? " !" : "",
                    errors, res.size(),
                    base.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", rps.median() / requests(base).median())));
        }
        if (!any) {
            md.append("| (no measurement) ||||||||||||\n");
        }
        md.append('\n');
    }

    private static Stats requests(List<HttpRecord> res) {
        return Stats.of(res, r -> r.result().requestsPerS());
    }

    private static boolean clientBound(double clientCpu, double serverCpu) {
        return clientCpu >= CLIENT_BOUND_PCT && (Double.isNaN(serverCpu) || serverCpu < SERVER_BUSY_PCT);
    }

    private static String rps(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String millis(double us) {
        double ms = us / 1000;
        return String.format(Locale.ROOT, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : "%.2f", ms);
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /**
     * Formats bytes per second as MB/s (10^6 bytes).
     *
     * @param bytesPerS bytes per second
     * @return e.g. {@code 112.5}
     */
    static String mb(double bytesPerS) {
        double v = bytesPerS / 1e6;
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }
}
