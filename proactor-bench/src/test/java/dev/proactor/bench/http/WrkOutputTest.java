package dev.proactor.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WrkOutputTest {

    private static final List<String> CLEAN = List.of(
            "Running 2s test @ http://127.0.0.1:18080/1k.bin",
            "  1 threads and 10 connections",
            "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
            "    Latency     2.46ms    8.85ms  88.84ms   95.49%",
            "    Req/Sec    17.87k     3.82k   22.32k    70.00%",
            "  Latency Distribution",
            "     50%  343.00us",
            "     75%    1.04ms",
            "     90%    2.96ms",
            "     99%   53.27ms",
            "  36369 requests in 2.06s, 44.33MB read",
            "Requests/sec:  17677.40",
            "Transfer/sec:     21.55MB");

    @Test
    void parsesACleanRun() {
        WrkResult r = WrkOutput.parse(CLEAN);
        assertEquals(17677.40, r.requestsPerS(), 1e-9);
        assertEquals(21.55 * 1024 * 1024, r.transferBytesPerS(), 1e-6);
        assertEquals(343.0, r.p50Us(), 1e-9);
        assertEquals(53_270.0, r.p99Us(), 1e-6);
        assertEquals(88_840.0, r.maxUs(), 1e-6);
        assertEquals(36369, r.requests());
        assertEquals(44.33 * 1024 * 1024, r.readBytes(), 1e-6);
        assertFalse(r.hasErrors());
        assertEquals("none", r.describeErrors());
    }

    @Test
    void parsesErrorLines() {
        List<String> lines = new java.util.ArrayList<>(CLEAN);
        lines.add(11, "  Socket errors: connect 1, read 2, write 3, timeout 4");
        lines.add(12, "  Non-2xx or 3xx responses: 25794");
        WrkResult r = WrkOutput.parse(lines);
        assertEquals(25794, r.non2xx3xx());
        assertEquals(10, r.socketErrors());
        assertTrue(r.hasErrors());
        assertEquals("non-2xx/3xx 25794, socket errors connect 1 read 2 write 3 timeout 4", r.describeErrors());
    }

    @Test
    void convertsUnits() {
        assertEquals(2_000_000, WrkOutput.micros("2.00", "s"), 1e-6);
        assertEquals(60_000_000, WrkOutput.micros("1.00", "m"), 1e-6);
        assertEquals(512, WrkOutput.bytes("512.00", "B"), 1e-9);
        assertEquals(1.5 * 1024 * 1024 * 1024, WrkOutput.bytes("1.50", "GB"), 1e-3);
        assertThrows(IllegalArgumentException.class, () -> WrkOutput.micros("1", "d"));
    }

    @Test
    void rejectsOutputWithoutLatencyDistribution() {
        List<String> lines = List.of("  10 requests in 1.00s, 1.00KB read", "Requests/sec:  10.00",
                "Transfer/sec:      1.00KB");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WrkOutput.parse(lines));
        assertTrue(e.getMessage().contains("percentiles"), e.getMessage());
    }
}
