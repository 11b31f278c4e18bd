package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link IoUringCoalescing}: when the owner's next blocking wait holds out for a batch. */
class IoUringCoalescingChoiceTest {

    @Test
    void theThresholdIsAQuarterOfTheBatchAndAtLeastTwo() {
        assertEquals(16, new IoUringCoalescing(64).threshold());
        assertEquals(8, new IoUringCoalescing(32).threshold());
        assertEquals(2, new IoUringCoalescing(4).threshold());
        assertEquals(2, new IoUringCoalescing(1).threshold());
    }

    @Test
    void startsWithPlainWaitsAndHoldsOutOnceAPlainWaitFindsAQuarterOfABatch() {
        IoUringCoalescing c = new IoUringCoalescing(64);
        assertFalse(c.holdOut(), "nothing in flight at start: no reason to hold out");
        c.waited(false, 15);
        assertFalse(c.holdOut());
        c.waited(false, 16);
        assertTrue(c.holdOut());
    }

    @Test
    void keepsHoldingOutWhileTheBatchesFillAndStopsAtTheFirstThatDoesNot() {
        IoUringCoalescing c = new IoUringCoalescing(64);
        c.waited(false, 64);
        for (int i = 0; i < 5; i++) {
            assertTrue(c.holdOut());
            c.waited(true, 20);
        }
        c.waited(true, 1); // a lone completion: the whole bound was waited for it
        assertFalse(c.holdOut());
    }

    @Test
    void probesOncePerRunOfPlainWaitsAndGoesBackToPlainWaitsWhenTheProbeFindsLittle() {
        IoUringCoalescing c = new IoUringCoalescing(64);
        for (int i = 0; i < IoUringCoalescing.PROBE_EVERY_WAITS; i++) {
            assertFalse(c.holdOut(), "plain wait " + i);
            c.waited(false, 1);
        }
        assertTrue(c.holdOut(), "the probe");
        c.waited(true, 2);
        assertFalse(c.holdOut(), "the probe found too little: plain waits again, for another run");
        for (int i = 0; i < IoUringCoalescing.PROBE_EVERY_WAITS - 1; i++) {
            c.waited(false, 1);
        }
        assertFalse(c.holdOut());
        c.waited(false, 1);
        assertTrue(c.holdOut(), "the next probe");
        c.waited(true, 40);
        assertTrue(c.holdOut(), "the probe filled a batch: holding out again");
    }
}
