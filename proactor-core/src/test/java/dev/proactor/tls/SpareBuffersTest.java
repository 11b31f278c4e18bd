package dev.proactor.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The rules of {@link SpareBuffers} over {@link dev.proactor.spi.Spares}: buffers come back cleared, one set of spares per capacity and kind. */
class SpareBuffersTest {

    /** Each test its own capacity: the spares are shared by the process. */
    private static int capacityFor(int test) {
        return 100_003 + test;
    }

    @Test
    void aBufferGivenBackIsTakenAgainClearedInsteadOfANewOne() {
        SpareBuffers spares = SpareBuffers.of(capacityFor(1), true);
        ByteBuffer b = spares.take();
        assertTrue(b.isDirect());
        assertEquals(capacityFor(1), b.capacity());
        b.put((byte) 7).flip();
        spares.give(b);
        assertEquals(1, spares.spares());
        ByteBuffer again = spares.take();
        assertSame(b, again);
        assertEquals(0, again.position());
        assertEquals(again.capacity(), again.limit());
        assertEquals(0, spares.spares());
        assertNotSame(again, spares.take(), "none kept: a new one");
    }

    @Test
    void theSameCapacityAndKindIsOneSetOfSpares() {
        assertSame(SpareBuffers.of(capacityFor(2), false), SpareBuffers.of(capacityFor(2), false));
        assertNotSame(SpareBuffers.of(capacityFor(2), false), SpareBuffers.of(capacityFor(2), true));
        assertFalse(SpareBuffers.of(capacityFor(2), false).take().isDirect());
    }

    @Test
    void aBufferOfAnotherCapacityOrKindIsNotKept() {
        SpareBuffers spares = SpareBuffers.of(capacityFor(3), true);
        spares.give(ByteBuffer.allocateDirect(capacityFor(3) + 1));
        spares.give(ByteBuffer.allocate(capacityFor(3)));
        assertEquals(0, spares.spares());
    }
}
