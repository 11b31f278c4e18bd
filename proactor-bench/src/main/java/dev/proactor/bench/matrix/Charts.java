package dev.proactor.bench.matrix;

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
 * PNG charts of the median throughput, one line per server: throughput vs sessions (rows
 * that differ only in sessions) and throughput vs block size (rows that differ only in block,
 * with the window expressed in blocks).
 */
public final class Charts {
    private final Path dir;
    private final List<ServerDefinition> servers;
    private final MatrixOutcome outcome;

    /**
     * Creates the chart writer.
     *
     * @param dir     output directory
     * @param servers servers in display order
     * @param outcome the measurements
     */
    public Charts(Path dir, List<ServerDefinition> servers, MatrixOutcome outcome) {
        this.dir = dir;
        this.servers = servers;
        this.outcome = outcome;
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
        written.addAll(sweep(rows, Row::sessions, r -> "t" + r.threads() + "_b" + r.block() + "_w" + r.windowLabel()
                + "_d" + r.delayUs(), "sessions", "throughput-vs-sessions", false));
        written.addAll(sweep(rows, Row::block, r -> "s" + r.sessions() + "_t" + r.threads() + "_w" + r.windowLabel()
                + "_d" + r.delayUs(), "block size, bytes", "throughput-vs-block", true));
        return written;
    }

    private List<String> sweep(List<Row> rows, ToIntFunction<Row> x, Function<Row, String> groupKey, String xTitle,
                               String prefix, boolean logY) throws IOException {
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            groups.computeIfAbsent(groupKey.apply(r), k -> new ArrayList<>()).add(r);
        }
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, List<Row>> g : groups.entrySet()) {
            XYChart chart = chart(g.getValue(), x, xTitle, prefix, logY);
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

    private XYChart chart(List<Row> rows, ToIntFunction<Row> x, String xTitle, String prefix, boolean logY) {
        if (rows.stream().mapToInt(x).distinct().count() < 2) {
            return null;
        }
        Row first = rows.get(0);
        String title = prefix.replace('-', ' ') + " (threads=" + first.threads()
                + (prefix.endsWith("sessions") ? " block=" + first.block() : " sessions=" + first.sessions())
                + " window=" + (first.pingPong() ? "ping-pong" : first.windowLabel())
                + " delay=" + first.delayUs() + "us; 2 shared cores)";
        XYChart chart = new XYChartBuilder().width(1000).height(600).title(title)
                .xAxisTitle(xTitle).yAxisTitle("echo throughput, MB/s (median)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        int series = 0;
        for (ServerDefinition s : servers) {
            TreeMap<Integer, Double> points = new TreeMap<>();
            for (Row r : rows) {
                List<LoadResult> res = outcome.results(s.name(), r);
                if (!res.isEmpty()) {
                    double mbps = Stats.of(res, LoadResult::bytesPerS).median() / 1e6;
                    if (mbps > 0) {
                        points.put(x.applyAsInt(r), mbps);
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
