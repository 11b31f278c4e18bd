package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary.md: medians with spreads, the ratio columns, the headline, the command line on top. */
class CostsSummaryTest {
    private static final List<String> SERVERS = List.of("proactor-epoll", "netty-epoll", "c-epoll");

    private static CostsOutcome outcome() {
        CostsOutcome o = new CostsOutcome();
        o.rate(0, 10000);
        double[][] cpu = {{5000, 5200, 5100}, {6000, 6300, 6200}, {3000, 3100, 2900}};
        for (int round = 1; round <= 3; round++) {
            for (int s = 0; s < SERVERS.size(); s++) {
                o.add(Samples.run(round, 0, Mode.SATURATION, SERVERS.get(s), cpu[s][round - 1] - 500, 2, 40000, 0));
                o.add(Samples.run(round, 0, Mode.FIXED, SERVERS.get(s), cpu[s][round - 1], 2 + s,
                        s == 1 && round == 2 ? 9000 : 10000, 10000));
            }
        }
        o.fail("netty-epoll round 4 sessions=1 fixed: server not ready");
        o.skip("c-io_uring", "C server not built");
        return o;
    }

    @Test
    void mediansSpreadsAndRatios(@TempDir Path dir) throws IOException {
        CostsSummary summary = new CostsSummary(List.of("command: `java -jar proactor-bench.jar costs --rounds 3`"),
                List.of(Samples.row(1)), SERVERS, List.of("io_uring:io_uring_submit_req"));
        Path file = dir.resolve("summary.md");
        summary.write(file, outcome());
        String md = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(md.startsWith("# Counted costs per echoed message\n\n- command: `java -jar"), md);
        assertTrue(md.contains("fixed rates: sessions=1: 10000 msgs/s"), md);
        assertTrue(md.contains("perf events this kernel lacks (their columns are empty): io_uring:io_uring_submit_req"),
                md);
        // headline: fixed-rate CPU medians of the runs that held the rate: 5100, 6100 (netty-epoll's round 2 ran
        // at 9000 of 10000: left out), 3000; proactor-epoll / netty-epoll = 0.84
        assertTrue(md.contains("| sessions | rate | proactor-epoll | netty-epoll | c-epoll | proactor-epoll / "
                + "netty-epoll |"), md);
        assertTrue(md.contains("| 1 | 10000 | 5100 | 6100 | 3000 | 0.84 |"), md);
        assertFalse(md.contains("netty-io_uring"), "a pair whose servers did not run is left out: " + md);
        // per-round ratios: round 1 5000 / 6000 = 0.833, round 3 5100 / 6200 = 0.823 (round 2: netty-epoll did not
        // hold the rate); median 0.828
        assertTrue(md.contains("## Per-round ratios of CPU per message at the fixed rate"), md);
        assertTrue(md.contains("| 1 | 0.83 (0.82-0.83), 2 of 3 rounds |"), md);
        assertTrue(md.indexOf("## Per-round ratios") < md.indexOf("## sessions=1, fixed rate"), "beside the headline");
        assertTrue(md.contains("## sessions=1, fixed rate 10000 msgs/s"), md);
        // user-mode CPU: the generator's user share of the server's CPU (20 of 60 %) applied to perf's CPU
        assertTrue(md.contains("| CPU ns/msg | user-mode ns/msg |"), md);
        assertTrue(md.contains("| proactor-epoll | 3 | 5100 (5000-5200) | 1700 (1667-1733) | 2.000 (2.000-2.000) | 0.500 (0.500-0.500) "
                + "| - | - | 10000 (10000-10000) | 0/3 | 0/3 |"), md);
        assertTrue(md.contains("| netty-epoll | 3 | 6200 (6000-6300) | 2067 (2000-2100) | 3.000 (3.000-3.000) | 0.500 (0.500-0.500) "
                + "| - | - | 10000 (9000-10000) | 1/3 | 0/3 |"), md);
        assertTrue(md.contains("| proactor-epoll / netty-epoll | 0.82 | 0.82 | 0.67 | 1.00 | - | 1.00 |"), md);
        assertTrue(md.contains("## sessions=1, saturation (unpaced)"), md);
        assertTrue(md.contains("| proactor-epoll | 3 | 4600 (4500-4700) |"), md);
        assertTrue(md.contains("| server | recvfrom | sendto |"), md);
        assertTrue(md.contains("| proactor-epoll | proactor-io 0.400, java 0.100 |"), md);
        assertTrue(md.indexOf("fixed rate 10000") < md.indexOf("saturation (unpaced)"), "fixed rate first");
        assertTrue(md.contains("## Failed runs\n\n- netty-epoll round 4"), md);
        assertTrue(md.contains("## Skipped servers\n\n- c-io_uring: C server not built"), md);
    }

    @Test
    void aRowWithoutRateSaysSo() {
        CostsOutcome o = new CostsOutcome();
        String md = new CostsSummary(List.of("command: x"), List.of(Samples.row(1)), SERVERS, List.of()).render(o);
        assertTrue(md.contains("sessions=1: none (no saturation run of round 1 succeeded)"), md);
        assertTrue(md.contains("| 1 | - | - | - | - | - |"), md);
        assertFalse(md.contains("lacks"), md);
    }

    @Test
    void aFixedRateRunAboveItsRateCaughtUpAndIsLeftOutOfTheHeadline() {
        CostsRecord held = Samples.run(1, 0, Mode.FIXED, "proactor-epoll", 5000, 2, 10100, 10000);
        CostsRecord caughtUp = Samples.run(1, 0, Mode.FIXED, "netty-epoll", 3000, 2, 10400, 10000);
        CostsRecord short1 = Samples.run(1, 0, Mode.FIXED, "c-epoll", 3000, 2, 9600, 10000);
        assertFalse(held.saturated(), "101 % of the rate holds it");
        assertTrue(caughtUp.saturated(), "104 %: its sessions fell behind and caught up");
        assertTrue(short1.saturated(), "96 %: short of the rate");
        CostsOutcome o = new CostsOutcome();
        o.rate(0, 10000);
        o.add(held);
        o.add(caughtUp);
        o.add(short1);
        String md = new CostsSummary(List.of("command: x"), List.of(Samples.row(1)), SERVERS, List.of()).render(o);
        assertTrue(md.contains("| 1 | 10000 | 5000 | - | - | - |"), md);
        assertTrue(md.contains("| netty-epoll | 1 | 3000 (3000-3000) |"), "the row's own table keeps every run: " + md);
    }
}
