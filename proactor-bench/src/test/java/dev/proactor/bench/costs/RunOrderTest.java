package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The interleaved order of the runs. */
class RunOrderTest {
    private static final List<String> SERVERS = List.of("a", "b", "c");

    @Test
    void theServerOrderRotatesEachRound() {
        assertEquals(List.of("a", "b", "c"), RunOrder.serversOf(SERVERS, 1));
        assertEquals(List.of("b", "c", "a"), RunOrder.serversOf(SERVERS, 2));
        assertEquals(List.of("c", "a", "b"), RunOrder.serversOf(SERVERS, 3));
        assertEquals(List.of("a", "b", "c"), RunOrder.serversOf(SERVERS, 4));
    }

    @Test
    void eachRowRunsEveryServerUnpacedThenAtTheFixedRate() {
        List<RunOrder.Step> plan = RunOrder.plan(2, 2, SERVERS);
        assertEquals(2 * 2 * 2 * 3, plan.size());
        assertEquals(List.of(
                new RunOrder.Step(1, 0, Mode.SATURATION, "a"), new RunOrder.Step(1, 0, Mode.SATURATION, "b"),
                new RunOrder.Step(1, 0, Mode.SATURATION, "c"), new RunOrder.Step(1, 0, Mode.FIXED, "a"),
                new RunOrder.Step(1, 0, Mode.FIXED, "b"), new RunOrder.Step(1, 0, Mode.FIXED, "c"),
                new RunOrder.Step(1, 1, Mode.SATURATION, "a")), plan.subList(0, 7));
        assertEquals(new RunOrder.Step(2, 0, Mode.SATURATION, "b"), plan.get(12));
        assertEquals(new RunOrder.Step(2, 1, Mode.FIXED, "a"), plan.get(23));
    }
}
