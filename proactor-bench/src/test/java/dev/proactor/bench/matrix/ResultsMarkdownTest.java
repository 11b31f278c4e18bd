package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.RepoLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.harness.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsMarkdownTest {

    /** A RESULT line with these figures. */
    static LoadResult result(double p99, double p999, double other, long min, long max, int idle) {
        String ratio = min == 0 ? "inf" : String.format(java.util.Locale.ROOT, "%.3f", (double) max / min);
        return LoadResult.parse("RESULT bytes_per_s=50000000 msgs_per_s=97656 p50_us=900 p99_us=" + p99
                + " p999_us=" + p999 + " cpu_pct=60 server_cpu_pct=99 other_user_cpu_pct=" + other
                + " session_msgs_min=" + min + " session_msgs_median=" + (min + max) / 2 + " session_msgs_max=" + max
                + " session_msgs_max_over_min=" + ratio + " idle_sessions=" + idle);
    }

    private static MatrixOptions options(Path out, String... extra) throws UsageException {
        String[] base = {"--sessions", "100,1000", "--window", "0,8x", "--servers", "proactor-nio-epoll,netty-nio,jdk-nio2",
            "--out", out.toString()};
        String[] argv = new String[base.length + extra.length];
        System.arraycopy(base, 0, argv, 0, base.length);
        System.arraycopy(extra, 0, argv, base.length, extra.length);
        return MatrixOptions.parse(argv, RepoLayout.detect());
    }

    private static MatrixOutcome outcome(MatrixOptions o) {
        MatrixOutcome out = new MatrixOutcome();
        Row pp100 = o.rows().get(0);
        Row pp1000 = o.rows().get(1);
        Row win100 = o.rows().get(2);
        for (int run = 1; run <= 3; run++) {
            out.add(new RunRecord("netty-nio", pp100, run, result(2000 + run, 9000 + run, 1, 950, 1050, 0)));
            out.add(new RunRecord("proactor-nio-epoll", pp100, run, result(4000 * run, 90000, 1, 10, 3000, 0)));
            out.add(new RunRecord("netty-nio", win100, run, result(500, 600, 1, 2000, 2100, 0)));
        }
        // one starved run of 1000 sessions, measured while something else ran
        out.add(new RunRecord("proactor-nio-epoll", pp1000, 1, result(50000, 250000, 45, 0, 900, 17)));
        out.add(new RunRecord("netty-nio", pp1000, 1, result(30000, 41000, 2, 80, 120, 0)));
        out.fail("jdk-nio2 run 1: server not ready");
        return out;
    }

    @Test
    void tailAndFairnessOfEveryPingPongRow(@TempDir Path dir) throws UsageException {
        MatrixOptions o = options(dir);
        String md = new ResultsMarkdown(o, List.of("context line")).render(outcome(o), List.of());
        int tail = md.indexOf("## Tail latency and fairness, ping-pong rows");
        assertTrue(tail > 0, md);
        String section = md.substring(tail, md.indexOf("## Row 1"));
        // every server of every ping-pong row, the window rows not
        assertEquals(6, section.lines().filter(l -> l.matches("\\| [12] \\| .*")).count(), section);
        assertTrue(section.contains("| 1 | 100 | 1 | 512 | 0 | netty-nio | 3 | 900.0 (900.0) | 2002.0 (2003.0) "
                + "| 9002.0 (9003.0) | 950 | 1000 | 1050 | 1.11 | no |"), section);
        assertTrue(section.contains("| 1 | 100 | 1 | 512 | 0 | proactor-nio-epoll | 3 | 900.0 (900.0) "
                + "| 8000.0 (12000.0) | 90000.0 (90000.0) | 10 | 1505 | 3000 | 300.00 | no |"), section);
        assertTrue(section.contains("| 2 | 1000 | 1 | 512 | 0 | proactor-nio-epoll | 1 | 900.0 | 50000.0 | 250000.0 "
                + "| 0 | 450 | 900 | inf (17 idle) | yes (other CPU 45 %) |"), section);
        assertTrue(section.contains("| 1 | 100 | 1 | 512 | 0 | jdk-nio2 | 0 | - |"), section);
        // per-row tables carry the fairness columns; the disturbed row is flagged
        assertTrue(md.contains("| msgs/session min | median | max | max/min |"), md);
        // the per-row table: server CPU and its time per block, 99 % of a core over 97 656 msgs/s = 10.14 us
        assertTrue(md.contains("| client CPU % | server CPU % | server us/msg | other CPU % | runs |"), md);
        assertTrue(md.contains("| 60 | 99 | 10.14 | 1 | 3 |"), md);
        assertTrue(md.contains("## Row 2: sessions=1000 threads=1 block=512 window=0 (ping-pong) delay=0us - disturbed"));
        assertFalse(md.contains("## Row 1: sessions=100 threads=1 block=512 window=0 (ping-pong) delay=0us - disturbed"));
        assertTrue(md.contains("No other work declared, but in 1 of 11 runs other processes used 10 % of a core"), md);
        assertTrue(md.contains(ResultsMarkdown.QUIET_RULE));
    }

    @Test
    void declaredDisturbedFlagsEverything(@TempDir Path dir) throws UsageException {
        MatrixOptions o = options(dir, "--disturbed", "--note", "mvn test | ran alongside");
        String md = new ResultsMarkdown(o, List.of()).render(outcome(o), null);
        assertTrue(md.contains("This run is **DISTURBED**"), md);
        assertTrue(md.contains("**Note:** mvn test \\| ran alongside"), md);
        assertTrue(md.contains("## Row 1: sessions=100 threads=1 block=512 window=0 (ping-pong) delay=0us - disturbed"));
        assertTrue(md.contains("| netty-nio | 3 | 900.0 (900.0) | 2002.0 (2003.0) | 9002.0 (9003.0) | 950 | 1000 "
                + "| 1050 | 1.11 | yes (declared) |"), md);
        assertTrue(md.contains("| 50.0 * |"), md);
    }

    @Test
    void chartsIncludeP99VsSessions(@TempDir Path dir) throws UsageException, IOException {
        MatrixOptions o = options(dir);
        List<String> files = new Charts(dir, o.servers(), outcome(o), false).writeAll(o.rows());
        assertTrue(files.contains("p99-vs-sessions_t1_b512_w0_d0.png"), files.toString());
        assertTrue(files.contains("throughput-vs-sessions_t1_b512_w0_d0.png"), files.toString());
        assertFalse(files.stream().anyMatch(f -> f.startsWith("p99-vs-sessions_t1_b512_w8x")), files.toString());
        assertTrue(Files.size(dir.resolve("p99-vs-sessions_t1_b512_w0_d0.png")) > 1000);
    }
}
