package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-message arithmetic. */
class RunCostsTest {

    @Test
    void perMessageFromTheSample() throws IOException {
        // 6000 msgs/s for the sample's 1 s window: 6000 messages.
        RunCosts c = RunCosts.of(Samples.uring(), 6000, 1);
        assertEquals(6000, c.messages());
        assertEquals(74.97e6 / 6000, c.cpuNsPerMsg(), 1e-6);
        assertEquals(4661 / 6000.0, c.syscallsPerMsg(), 1e-12);
        assertEquals(1440 / 6000.0, c.ctxPerMsg(), 1e-12);
        assertEquals(4652 / 6000.0, c.entersPerMsg(), 1e-12);
        assertEquals(11998 / 4652.0, c.sqesPerEnter(), 1e-12);
        assertEquals(4652 / 6000.0, c.syscallsByKind().get("io_uring_enter"), 1e-12);
        assertEquals(0, c.syscallsByKind().get("recvfrom"));
        assertEquals(PerfEvents.SYSCALL_KINDS, List.copyOf(c.syscallsByKind().keySet()), "in report order");
        assertEquals(Map.of("uring_echo", 1440 / 6000.0), c.ctxByThread());
    }

    @Test
    void theWindowScalesTheMessages() throws IOException {
        RunCosts one = RunCosts.of(Samples.uring(), 6000, 1);
        RunCosts four = RunCosts.of(Samples.uring(), 6000, 4);
        assertEquals(24000, four.messages());
        assertEquals(one.cpuNsPerMsg() / 4, four.cpuNsPerMsg(), 1e-6);
    }

    @Test
    void missingEventsAndNoEntersAreUnknown() {
        PerfSample epollOnly = PerfSample.parse(List.of(
                "srv-1,100.0,msec,task-clock,1,100.00,,",
                "srv-1,2000,,raw_syscalls:sys_enter,1,100.00,,",
                "srv-1,0,,syscalls:sys_enter_io_uring_enter,1,100.00,,"), PerfEvents.wanted());
        RunCosts c = RunCosts.of(epollOnly, 1000, 1);
        assertEquals(100_000, c.cpuNsPerMsg(), 1e-9);
        assertEquals(2, c.syscallsPerMsg());
        assertEquals(0, c.entersPerMsg());
        assertTrue(Double.isNaN(c.sqesPerEnter()), "no enters: SQEs per enter unknown");
        assertTrue(Double.isNaN(c.ctxPerMsg()), "context switches not counted");
        assertTrue(Double.isNaN(c.syscallsByKind().get("recvfrom")));
    }

    @Test
    void noMessagesMeansNoPerMessageValue() throws IOException {
        RunCosts c = RunCosts.of(Samples.uring(), 0, 4);
        assertEquals(0, c.messages());
        assertTrue(Double.isNaN(c.cpuNsPerMsg()));
        assertTrue(Double.isNaN(c.syscallsPerMsg()));
    }
}
