package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which events perf has, from {@code perf list}. */
class PerfEventsTest {

    @Test
    void missingEventsAreListedAndSkipped() {
        String list = "  context-switches OR cs                             [Software event]\n"
                + "  task-clock                                         [Software event]\n"
                + "  raw_syscalls:sys_enter                             [Tracepoint event]\n"
                + "  syscalls:sys_enter_recvfrom                        [Tracepoint event]\n"
                + "  syscalls:sys_enter_recvfrom_more                   [Tracepoint event]\n";
        PerfEvents.Availability a = PerfEvents.check(list);
        assertEquals(List.of("task-clock", "context-switches", "raw_syscalls:sys_enter",
                "syscalls:sys_enter_recvfrom"), a.present());
        assertEquals(PerfEvents.wanted().size() - 4, a.missing().size());
        assertTrue(a.missing().contains(PerfEvents.SUBMIT_REQ));
    }

    @Test
    void everyKindIsAnEvent() {
        assertEquals(3 + PerfEvents.SYSCALL_KINDS.size() + 1, PerfEvents.wanted().size());
        assertTrue(PerfEvents.wanted().contains("syscalls:sys_enter_io_uring_enter"));
    }
}
