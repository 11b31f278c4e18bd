package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code loadgen --self-test} (built in the compile phase; skipped without gcc) and reads its
 * fairness fields with the runner's parser: the C statistics and formatting and the Java parsing agree.
 */
class LoadgenSelfTest {
    private static final Path LOADGEN = Path.of("target", "native", "loadgen");

    @Test
    void cAndJavaAgreeOnTheFairnessFields() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(LOADGEN), "loadgen not built (no gcc?)");
        Process p = new ProcessBuilder(LOADGEN.toString(), "--self-test").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().filter(l -> l.startsWith("FAIRNESS ")).toList();
        assertTrue(lines.size() >= 4, out);
        boolean sawZero = false;
        for (String line : lines) {
            String[] parts = line.split(" ", 3); // FAIRNESS counts=a,b,c fields...
            long[] counts = Arrays.stream(parts[1].substring("counts=".length()).split(","))
                    .mapToLong(Long::parseLong).sorted().toArray();
            SessionFairness f = LoadResult.parse(LoadResultTest.OLD_LINE + " " + parts[2]).fairness();
            int n = counts.length;
            double median = n % 2 == 1 ? counts[n / 2] : (counts[n / 2 - 1] + counts[n / 2]) / 2.0;
            assertEquals(counts[0], f.min(), line);
            assertEquals(median, f.median(), line);
            assertEquals(counts[n - 1], f.max(), line);
            assertEquals(Arrays.stream(counts).filter(c -> c == 0).count(), f.idle(), line);
            if (counts[0] == 0) {
                sawZero = true;
                assertEquals(Double.POSITIVE_INFINITY, f.maxOverMin(), line);
            } else {
                assertEquals((double) counts[n - 1] / counts[0], f.maxOverMin(), 0.0005, line);
            }
        }
        assertTrue(sawZero, "the self-test covers min = 0");
    }

    @Test
    void theSelfTestChecksThePacingArithmetic() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(LOADGEN), "loadgen not built (no gcc?)");
        Process p = new ProcessBuilder(LOADGEN.toString(), "--self-test").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("pacing self-test ok"), out);
    }

    @Test
    void theUsageNamesTheRate() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(LOADGEN), "loadgen not built (no gcc?)");
        Process p = new ProcessBuilder(LOADGEN.toString(), "--help").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("--rate") && out.contains("offered_msgs_per_s"), out);
    }
}
