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
 * Who submits an SQE written by a thread that may not submit ({@link SqeHandOff#whoSubmits()}): the decisions on a
 * real ring, one state at a time (the threads that make these states race are {@link IoUringHandOffTest}'s).
 */
class IoUringSqeHandOffTest {

    private IoUringRing ring;
    private SqeHandOff handOff;

    @BeforeEach
    void setUp() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        ring = new IoUringRing(8, 0);
        handOff = new SqeHandOff(ring);
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
        assertEquals(SqeHandOff.TO_SUBMITTER, handOff.whoSubmits());
    }

    @Test
    void anEntryAlreadyTakenNeedsNobody() {
        writeNop();
        assertEquals(1, ring.takeUnsubmitted());
        assertEquals(SqeHandOff.HANDED, handOff.whoSubmits());
    }

    @Test
    void aRunningOwnTurnTakesItAndSubmitsItAtItsEndAtTheLatest() {
        handOff.beginOwnTurn();
        writeNop();
        assertEquals(SqeHandOff.HANDED, handOff.whoSubmits());
        assertTrue(handOff.endOwnTurn(), "the turn's end must submit what was left to it");
        assertFalse(handOff.endOwnTurn(), "once only");
    }

    @Test
    void aTurnWhoseEnterTookTheEntryHasNothingLeftAtItsEnd() {
        handOff.beginOwnTurn();
        writeNop();
        assertEquals(SqeHandOff.HANDED, handOff.whoSubmits());
        assertEquals(1, ring.takeUnsubmitted());
        assertFalse(handOff.endOwnTurn());
    }

    @Test
    void aBlockedOwnLeaderIsRungOncePerWait() {
        handOff.setDoorbellUsable(true);
        handOff.beginOwnTurn();
        assertEquals(0, handOff.takeForWait());
        writeNop();
        assertEquals(SqeHandOff.RING_DOORBELL, handOff.whoSubmits());
        writeNop();
        assertEquals(SqeHandOff.HANDED, handOff.whoSubmits(), "a ring is already on its way");
        handOff.endWait(0, 0); // the wait took nothing
        handOff.setDoorbellUsable(true); // the leader reaped the doorbell and armed it again
        assertEquals(2, handOff.takeForWait(), "the woken leader's next enter takes both");
        writeNop();
        assertEquals(SqeHandOff.RING_DOORBELL, handOff.whoSubmits(), "the next wait is rung again");
        handOff.endWait(2, 2); // the kernel took the two entries of that wait
        assertTrue(handOff.endOwnTurn());
    }

    @Test
    void aBlockedOwnLeaderWithoutDoorbellLeavesItToTheSubmitter() {
        handOff.beginOwnTurn();
        handOff.takeForWait();
        writeNop();
        assertEquals(SqeHandOff.TO_SUBMITTER, handOff.whoSubmits());
    }

    @Test
    void aBlockedLeaderThatMayNotSubmitLeavesItToTheSubmitter() {
        handOff.setDoorbellUsable(true);
        handOff.markWaitWithoutSubmitting();
        writeNop();
        assertEquals(SqeHandOff.TO_SUBMITTER, handOff.whoSubmits());
    }
}
