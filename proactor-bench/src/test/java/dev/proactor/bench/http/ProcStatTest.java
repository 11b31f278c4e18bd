package dev.proactor.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcStatTest {

    @Test
    void sumsTheMachineLine() {
        ProcStat.Machine m = ProcStat.machine(List.of(
                "cpu  319968 5 206383 629232 5897 0 79070 1606 0 0",
                "cpu0 170402 0 99976 314555 1785 0 33934 778 0 0",
                "cpu1 149566 5 106407 314677 4111 0 45135 828 0 0",
                "intr 123"));
        assertEquals(319968 + 5 + 206383 + 629232 + 5897 + 79070 + 1606, m.totalTicks());
        assertEquals(319973, m.userTicks());
        assertEquals(2, m.cpus());
    }

    @Test
    void readsATaskWhoseNameHasSpacesAndParentheses() {
        ProcStat.Task t = ProcStat.task("4242 (nginx: worker (x)) S 4241 4241 16908 0 -1 4194304 97 0 1 0 "
                + "123 45 0 0 20 0 1 0 628859");
        assertEquals(4242, t.pid());
        assertEquals(4241, t.ppid());
        assertEquals(123, t.userTicks());
        assertEquals(45, t.sysTicks());
    }

    @Test
    void rejectsMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> ProcStat.machine(List.of("intr 1")));
        assertThrows(IllegalArgumentException.class, () -> ProcStat.task("12 (x) S 1"));
    }
}
