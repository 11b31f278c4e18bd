package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing {@code perf stat -x, --per-thread} output (the committed sample and edge cases). */
class PerfSampleTest {

    @Test
    void theSampleHasEveryEventOfBothThreads() throws IOException {
        PerfSample s = Samples.uring();
        assertEquals(2 * PerfEvents.wanted().size(), s.counts().size());
        for (String e : PerfEvents.wanted()) {
            assertTrue(s.has(e), e);
        }
        assertEquals(74.97, s.total(PerfEvents.TASK_CLOCK), 1e-9);
        assertEquals(1440, s.total(PerfEvents.CONTEXT_SWITCHES));
        assertEquals(4661, s.total(PerfEvents.SYSCALLS));
        assertEquals(4652, s.total(PerfEvents.ofKind("io_uring_enter")));
        assertEquals(11998, s.total(PerfEvents.SUBMIT_REQ));
        assertEquals(0, s.total(PerfEvents.ofKind("recvfrom")));
    }

    @Test
    void notCountedIsZeroAndTheThreadsGroupByName() throws IOException {
        PerfSample s = Samples.uring();
        PerfSample.Count idle = s.counts().stream()
                .filter(c -> c.tid() == 13283 && c.event().equals(PerfEvents.TASK_CLOCK)).findFirst().orElseThrow();
        assertEquals("uring_echo", idle.thread());
        assertEquals(0, idle.value());
        assertEquals(Map.of("uring_echo", 1440.0), s.byGroup(PerfEvents.CONTEXT_SWITCHES));
    }

    @Test
    void aJavaServersThreadsGroupByNameWithoutDigits() throws IOException {
        // netty-io_uring at saturation, 100 sessions, 2 s: the event loop's 15-character comm ends with '-'
        PerfSample s = PerfSample.parse(Samples.lines(Samples.NETTY), PerfEvents.wanted());
        assertEquals(Map.of("netty-io_uring", 567.0, "C CompilerThre", 131.0, "VM Periodic Tas", 40.0,
                "Monitor Deflati", 8.0, "VM Thread", 3.0), s.byGroup(PerfEvents.CONTEXT_SWITCHES));
        assertEquals(1923.95 + 23.23 + 14.31 + 1.20 + 0.20 + 0.12, s.total(PerfEvents.TASK_CLOCK), 1e-9);
    }

    @Test
    void threadNamesMayHoldDashesAndCommas() {
        PerfSample s = PerfSample.parse(List.of(
                "# started on Sat Nov 28 08:45:04 2026", "",
                "proactor-io-0-4242,12,,context-switches,1000,100.00,1.0,K/sec",
                "proactor-io-1-4243,30,,context-switches,1000,100.00,1.0,K/sec",
                "odd,name-77,5,,context-switches,1000,100.00,,",
                "java-4200,<not supported>,,io_uring:io_uring_submit_req,0,100.00,,"),
                PerfEvents.wanted());
        assertEquals(3, s.counts().size());
        assertEquals("odd,name", s.counts().get(2).thread());
        assertEquals(77, s.counts().get(2).tid());
        assertEquals(Map.of("proactor-io", 42.0, "odd,name", 5.0), s.byGroup(PerfEvents.CONTEXT_SWITCHES));
        assertFalse(s.has(PerfEvents.SUBMIT_REQ), "<not supported> leaves the event out");
        assertTrue(Double.isNaN(s.total(PerfEvents.SUBMIT_REQ)));
        assertTrue(Double.isNaN(s.total(PerfEvents.TASK_CLOCK)), "not asked: unknown, not 0");
    }

    @Test
    void groupsStripDigitsAndTheSeparatorsTheyLeave() {
        assertEquals("proactor-io", PerfSample.group("proactor-io-12"));
        assertEquals("GC Thread", PerfSample.group("GC Thread#0"));
        assertEquals("C CompilerThre", PerfSample.group("C2 CompilerThre"), "C1 and C2 count together");
        assertEquals("nioEventLoopGroup", PerfSample.group("nioEventLoopGroup-2-1"));
        assertEquals("?", PerfSample.group("1234"));
    }

    @Test
    void malformedLinesAreRejected() {
        List<String> events = PerfEvents.wanted();
        assertThrows(IllegalArgumentException.class,
                () -> PerfSample.parse(List.of("x-1,12,,no-such-event,1,100.00,,"), events));
        assertThrows(IllegalArgumentException.class,
                () -> PerfSample.parse(List.of("x-1,twelve,,context-switches,1,100.00,,"), events));
        assertThrows(IllegalArgumentException.class,
                () -> PerfSample.parse(List.of("12,,context-switches,1,100.00,,"), events),
                "without --per-thread there is no COMM-TID field");
    }
}
