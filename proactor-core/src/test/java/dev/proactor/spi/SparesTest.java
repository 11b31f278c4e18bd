package dev.proactor.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The rules of {@link Spares}: new only when none is kept, last given first taken, any thread serves any other. */
class SparesTest {

    @Test
    void somethingNewIsMadeOnlyWhenNoSpareIsKept() {
        AtomicInteger made = new AtomicInteger();
        Spares<Object> spares = new Spares<>(() -> {
            made.incrementAndGet();
            return new Object();
        });
        Object a = spares.take();
        Object b = spares.take();
        assertEquals(2, made.get());
        spares.give(a);
        spares.give(b);
        assertEquals(2, spares.spares());
        assertSame(b, spares.take(), "the one given last comes first (the warmest in the caches)");
        assertSame(a, spares.take());
        assertEquals(2, made.get(), "spares were taken, nothing new made");
        assertEquals(0, spares.spares());
    }

    @Test
    void everySpareGivenBackIsKeptAndTakenOnceWhicheverThreadsGiveAndTake() throws Exception {
        Spares<Object> spares = new Spares<>(Object::new);
        List<Object> taken = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            taken.add(spares.take());
        }
        CompletableFuture.runAsync(() -> taken.forEach(spares::give)).get();
        assertEquals(40, spares.spares());
        Map<Object, Boolean> again = new IdentityHashMap<>();
        for (int i = 0; i < 40; i++) {
            again.put(spares.take(), true);
        }
        assertEquals(40, again.size(), "each spare handed out once");
        taken.forEach(o -> assertTrue(again.containsKey(o), "the spares given back on another thread"));
        assertEquals(0, spares.spares());
    }
}
