package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** results.csv: one line per run, every measure in its column. */
class CostsCsvTest {

    @Test
    void oneLinePerRunWithEveryColumn(@TempDir Path dir) throws IOException {
        CostsRecord fixed = new CostsRecord(2, 0, Samples.row(100), Mode.FIXED, "c-io_uring", 8000,
                Samples.load(7000, 8000), RunCosts.of(Samples.uring(), 7000, 1));
        CostsRecord sat = new CostsRecord(2, 0, Samples.row(100), Mode.SATURATION, "c-io_uring", 0,
                Samples.load(20000, 0), RunCosts.of(Samples.uring(), 20000, 1));
        Path file = dir.resolve("results.csv");
        CostsCsv csv = new CostsCsv(file);
        csv.append(fixed);
        csv.append(sat);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(3, lines.size());
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        String[] f = lines.get(1).split(",", -1);
        assertEquals(header.size(), f.length, lines.get(1));
        assertEquals(header.size(), lines.get(2).split(",", -1).length);
        assertEquals("2", f[header.indexOf("round")]);
        assertEquals("100", f[header.indexOf("sessions")]);
        assertEquals("fixed", f[header.indexOf("mode")]);
        assertEquals("c-io_uring", f[header.indexOf("server")]);
        assertEquals("8000", f[header.indexOf("offered_msgs_per_s")]);
        assertEquals("7000", f[header.indexOf("msgs_per_s")]);
        assertEquals("true", f[header.indexOf("saturated")], "7000 < 97 % of 8000");
        assertEquals("7000", f[header.indexOf("messages")]);
        assertEquals(String.format(Locale.ROOT, "%.1f", 74.97e6 / 7000), f[header.indexOf("cpu_ns_per_msg")]);
        assertEquals(String.format(Locale.ROOT, "%.1f", 74.97e6 / 7000 * 20 / 60),
                f[header.indexOf("user_cpu_ns_per_msg")], "the generator's user share (20 of 60 %) of perf's CPU");
        assertEquals("20.0", f[header.indexOf("server_user_cpu_pct")]);
        assertEquals("0.6659", f[header.indexOf("syscalls_per_msg")]);
        assertEquals("0.6646", f[header.indexOf("io_uring_enter_per_msg")]);
        assertEquals("2.579", f[header.indexOf("sqes_per_enter")]);
        assertEquals("0.0000", f[header.indexOf("recvfrom_per_msg")]);
        assertEquals("uring_echo=0.2057", f[header.indexOf("ctx_by_thread")]);
        assertTrue(lines.get(2).contains(",saturation,"), lines.get(2));
        assertTrue(lines.get(2).contains(",false,"), "saturation runs are never flagged: " + lines.get(2));
    }

    @Test
    void unknownValuesAreEmptyFields() {
        RunCosts none = RunCosts.of(PerfSample.parse(List.of("srv-1,10.0,msec,task-clock,1,100.00,,"),
                PerfEvents.wanted()), 1000, 1);
        String line = CostsCsv.line(new CostsRecord(1, 0, Samples.row(1), Mode.SATURATION, "x", 0,
                Samples.load(1000, 0), none));
        List<String> header = Arrays.asList(CostsCsv.header().split(","));
        String[] f = line.split(",", -1);
        assertEquals("10000.0", f[header.indexOf("cpu_ns_per_msg")]);
        assertEquals("", f[header.indexOf("syscalls_per_msg")]);
        assertEquals("", f[header.indexOf("sqes_per_enter")]);
        assertEquals("", f[header.indexOf("ctx_by_thread")]);
    }
}
