package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SessionFairnessTest {

    @Test
    void parsesRatios() {
        assertEquals(1.25, SessionFairness.parseRatio("1.250"));
        assertEquals(Double.POSITIVE_INFINITY, SessionFairness.parseRatio("inf"));
        assertEquals(Double.POSITIVE_INFINITY, SessionFairness.parseRatio("Infinity"));
        assertThrows(NumberFormatException.class, () -> SessionFairness.parseRatio("nan"));
        assertThrows(NumberFormatException.class, () -> SessionFairness.parseRatio("-2"));
    }

    @Test
    void summaryTakesMediansAndTheWorstRatio() {
        SessionFairness s = SessionFairness.summarize(List.of(
                new SessionFairness(90, 100, 110, 110 / 90.0, 0),
                new SessionFairness(50, 98, 150, 3.0, 0),
                new SessionFairness(95, 99, 105, 105 / 95.0, 0)));
        assertEquals(90, s.min());
        assertEquals(99, s.median());
        assertEquals(110, s.max());
        assertEquals(3.0, s.maxOverMin());
        assertEquals(0, s.idle());
        assertEquals("3.00", s.ratioCell());
    }

    @Test
    void oneStarvedRunMakesTheSummaryInfinite() {
        SessionFairness s = SessionFairness.summarize(List.of(
                new SessionFairness(90, 100, 110, 110 / 90.0, 0),
                new SessionFairness(0, 97, 400, Double.POSITIVE_INFINITY, 12),
                new SessionFairness(95, 99, 105, 105 / 95.0, 0)));
        assertEquals(90, s.min());
        assertEquals(Double.POSITIVE_INFINITY, s.maxOverMin());
        assertEquals(12, s.idle());
        assertEquals("inf (12 idle)", s.ratioCell());
    }

    @Test
    void everySessionIdle() {
        SessionFairness s = SessionFairness.summarize(List.of(new SessionFairness(0, 0, 0, Double.POSITIVE_INFINITY, 4)));
        assertEquals(0, s.max());
        assertEquals("inf (4 idle)", s.ratioCell());
    }

    @Test
    void unknownRunsAreIgnored() {
        assertSame(SessionFairness.UNKNOWN, SessionFairness.summarize(List.of(SessionFairness.UNKNOWN)));
        assertFalse(SessionFairness.summarize(List.of()).known());
        SessionFairness s = SessionFairness.summarize(List.of(SessionFairness.UNKNOWN,
                new SessionFairness(10, 20, 30, 3.0, 0)));
        assertEquals(10, s.min());
        assertEquals(3.0, s.maxOverMin());
    }
}
