package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The fixed rate: given, or half the lowest saturation of the row in round 1. */
class FixedRatesTest {

    @Test
    void halfTheLowestRoundOneSaturation() {
        assertEquals(OptionalLong.of(15000), FixedRates.fromRoundOne(List.of(40000.0, 30001.0, 55000.0)));
        assertEquals(OptionalLong.of(1), FixedRates.fromRoundOne(List.of(1.0)), "never below 1 msg/s");
        assertTrue(FixedRates.fromRoundOne(List.of()).isEmpty());
    }

    @Test
    void aRowKeepsItsRateOnceSettled() {
        FixedRates rates = new FixedRates(0);
        assertFalse(rates.given());
        assertTrue(rates.of(0).isEmpty());
        assertEquals(OptionalLong.of(10000), rates.settle(0, List.of(20000.0, 30000.0)));
        assertEquals(OptionalLong.of(10000), rates.settle(0, List.of(5000.0)), "later rounds do not move it");
        assertEquals(OptionalLong.of(10000), rates.of(0));
        assertTrue(rates.of(1).isEmpty());
        assertTrue(rates.settle(1, List.of()).isEmpty(), "no saturation run succeeded");
    }

    @Test
    void aGivenRateIsEveryRowsRate() {
        FixedRates rates = new FixedRates(7000);
        assertTrue(rates.given());
        assertEquals(OptionalLong.of(7000), rates.of(3));
        assertEquals(OptionalLong.of(7000), rates.settle(0, List.of(1000.0)));
    }
}
