package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.internal.IoUringNative;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who submits an SQE written by a thread that may not submit ({@link IoUringRing#handOff()}): the decisions on a
 * real ring, one state at a time (the threads that make these states race are {@link IoUringHandOffTest}'s).
 */
class IoUringRingHandOffTest {

    private IoUringRing ring;

    @BeforeEach
    void setUp() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        ring = new IoUringRing(8, 0);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (ring != null) {
            ring.close();
        }
    }

    private void writeNop() {
        assertEquals(IoUringRing.WRITTEN, ring.prepare(IoUringNative.OP_NOP, 0, 0, -1, 0, 0, 0, 0, 7L));
    }

    @Test
    void withoutAnOwnLeaderTheSubmitterTakesIt() {
        writeNop();
        assertEquals(IoUringRing.TO_SUBMITTER, ring.handOff());
    }

    @Test
    void anEntryAlreadyTakenNeedsNobody() {
        writeNop();
        assertEquals(1, ring.takeUnsubmitted());
        assertEquals(IoUringRing.HANDED, ring.handOff());
    }

    @Test
    void aRunningOwnTurnTakesItAndSubmitsItAtItsEndAtTheLatest() {
        ring.beginOwnTurn();
        writeNop();
        assertEquals(IoUringRing.HANDED, ring.handOff());
        assertTrue(ring.endOwnTurn(), "the turn's end must submit what was left to it");
        assertFalse(ring.endOwnTurn(), "once only");
    }

    @Test
    void aTurnWhoseEnterTookTheEntryHasNothingLeftAtItsEnd() {
        ring.beginOwnTurn();
        writeNop();
        assertEquals(IoUringRing.HANDED, ring.handOff());
        assertEquals(1, ring.takeUnsubmitted());
        assertFalse(ring.endOwnTurn());
    }

    @Test
    void aBlockedOwnLeaderIsRungOncePerWait() {
        ring.setDoorbellUsable(true);
        ring.beginOwnTurn();
        assertEquals(0, ring.takeForWait());
        writeNop();
        assertEquals(IoUringRing.RING_DOORBELL, ring.handOff());
        writeNop();
        assertEquals(IoUringRing.HANDED, ring.handOff(), "a ring is already on its way");
        ring.endWait(0, 0); // the wait took nothing
        ring.setDoorbellUsable(true); // the leader reaped the doorbell and armed it again
        assertEquals(2, ring.takeForWait(), "the woken leader's next enter takes both");
        writeNop();
        assertEquals(IoUringRing.RING_DOORBELL, ring.handOff(), "the next wait is rung again");
        ring.endWait(2, 2); // the kernel took the two entries of that wait
        assertTrue(ring.endOwnTurn());
    }

    @Test
    void aBlockedOwnLeaderWithoutDoorbellLeavesItToTheSubmitter() {
        ring.beginOwnTurn();
        ring.takeForWait();
        writeNop();
        assertEquals(IoUringRing.TO_SUBMITTER, ring.handOff());
    }

    @Test
    void aBlockedLeaderThatMayNotSubmitLeavesItToTheSubmitter() {
        ring.setDoorbellUsable(true);
        ring.markWaitWithoutSubmitting();
        writeNop();
        assertEquals(IoUringRing.TO_SUBMITTER, ring.handOff());
    }
}
