package dev.proactor.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The rules of {@link SpareBuffers}: what is taken, what is kept, and that a spare serves any thread. */
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

    @Test
    void everyBufferGivenBackIsKeptAndTakenOnceWhicheverThreadsGiveAndTake() throws Exception {
        SpareBuffers spares = SpareBuffers.of(capacityFor(4), false);
        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            taken.add(spares.take());
        }
        CompletableFuture.runAsync(() -> taken.forEach(spares::give)).get();
        assertEquals(40, spares.spares());
        Map<ByteBuffer, Boolean> again = new IdentityHashMap<>();
        for (int i = 0; i < 40; i++) {
            again.put(spares.take(), true);
        }
        assertEquals(40, again.size(), "each spare handed out once");
        taken.forEach(b -> assertTrue(again.containsKey(b), "the spares given back on another thread"));
        assertEquals(0, spares.spares());
    }
}
