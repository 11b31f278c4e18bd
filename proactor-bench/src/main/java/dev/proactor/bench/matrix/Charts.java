package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.Stats;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts, one line per server: median throughput vs sessions (rows that differ only in
 * sessions), median throughput vs block size (rows that differ only in block, with the window
 * expressed in blocks), and median p99 latency vs sessions for the ping-pong rows (log scale).
 */
public final class Charts {
    private final Path dir;
    private final List<ServerDefinition> servers;
    private final MatrixOutcome outcome;
    private final boolean disturbed;

    /** What a chart plots on its y axis; a null pattern keeps XChart's number format. */
    private record Metric(String title, boolean logY, String yPattern, Function<List<LoadResult>, Double> value) {
    }

    private static final Metric THROUGHPUT = new Metric("echo throughput, MB/s (median)", false, null,
            res -> Stats.of(res, LoadResult::bytesPerS).median() / 1e6);
    private static final Metric THROUGHPUT_LOG = new Metric(THROUGHPUT.title(), true, null, THROUGHPUT.value());
    private static final Metric P99 = new Metric("p99 round trip, us (median of the runs, log scale)", true, "#,###",
            res -> Stats.of(res, LoadResult::p99Us).median());

    /**
     * Creates the chart writer.
     *
     * @param dir       output directory
     * @param servers   servers in display order
     * @param outcome   the measurements
     * @param disturbed other work was declared to run on the machine: the titles say so
     */
    public Charts(Path dir, List<ServerDefinition> servers, MatrixOutcome outcome, boolean disturbed) {
        this.dir = dir;
        this.servers = servers;
        this.outcome = outcome;
        this.disturbed = disturbed;
    }

    /**
     * Writes every chart the table allows.
     *
     * @param rows the table
     * @return the file names written, or a note why there are none
     * @throws IOException when a file cannot be written
     */
    public List<String> writeAll(List<Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> written = new ArrayList<>();
        Function<Row, String> bySessions = r -> "t" + r.threads() + "_b" + r.block() + "_w" + r.windowLabel()
                + "_d" + r.delayUs();
        written.addAll(sweep(rows, Row::sessions, bySessions, "sessions", "throughput-vs-sessions", THROUGHPUT));
        written.addAll(sweep(rows, Row::block, r -> "s" + r.sessions() + "_t" + r.threads() + "_w" + r.windowLabel()
                + "_d" + r.delayUs(), "block size, bytes", "throughput-vs-block", THROUGHPUT_LOG));
        List<Row> pingPong = rows.stream().filter(Row::pingPong).toList();
        written.addAll(sweep(pingPong, Row::sessions, bySessions, "sessions", "p99-vs-sessions", P99));
        return written;
    }

    private List<String> sweep(List<Row> rows, ToIntFunction<Row> x, Function<Row, String> groupKey, String xTitle,
                               String prefix, Metric metric) throws IOException {
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            groups.computeIfAbsent(groupKey.apply(r), k -> new ArrayList<>()).add(r);
        }
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, List<Row>> g : groups.entrySet()) {
            XYChart chart = chart(g.getValue(), x, xTitle, prefix, metric);
            if (chart == null) {
                continue;
            }
            String name = prefix + "_" + g.getKey() + ".png";
            try (OutputStream os = Files.newOutputStream(dir.resolve(name))) {
                BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
            }
            files.add(name);
        }
        return files;
    }

    private XYChart chart(List<Row> rows, ToIntFunction<Row> x, String xTitle, String prefix, Metric metric) {
        if (rows.stream().mapToInt(x).distinct().count() < 2) {
            return null;
        }
        Row first = rows.get(0);
        String title = prefix.replace('-', ' ') + " (threads=" + first.threads()
                + (prefix.endsWith("sessions") ? " block=" + first.block() : " sessions=" + first.sessions())
                + " window=" + (first.pingPong() ? "ping-pong" : first.windowLabel())
                + " delay=" + first.delayUs() + "us; 2 shared cores" + (disturbed ? "; DISTURBED" : "") + ")";
        XYChart chart = new XYChartBuilder().width(1000).height(600).title(title)
                .xAxisTitle(xTitle).yAxisTitle(metric.title()).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(metric.logY());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        if (metric.yPattern() != null) {
            chart.getStyler().setYAxisDecimalPattern(metric.yPattern());
        }
        int series = 0;
        for (ServerDefinition s : servers) {
            TreeMap<Integer, Double> points = new TreeMap<>();
            for (Row r : rows) {
                List<LoadResult> res = outcome.results(s.name(), r);
                if (!res.isEmpty()) {
                    double y = metric.value().apply(res);
                    if (y > 0) {
                        points.put(x.applyAsInt(r), y);
                    }
                }
            }
            if (points.isEmpty()) {
                continue;
            }
            double[] xs = points.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] ys = points.values().stream().mapToDouble(Double::doubleValue).toArray();
            chart.addSeries(s.name(), xs, ys);
            series++;
        }
        return series == 0 ? null : chart;
    }
}
