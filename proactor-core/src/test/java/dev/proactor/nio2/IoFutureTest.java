package dev.proactor.nio2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.AsynchronousChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link IoFuture}'s own contract, without a channel: outcomes, cancel (the direction killed before a waiter sees
 * the cancel, exactly one of complete and cancel wins), interrupts and timeouts of waiters (their nodes do not
 * stay), many waiters. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoFutureTest {

    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** A channel that only records its close. */
    private static final class Channel implements AsynchronousChannel {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public boolean isOpen() {
            return closes.get() == 0;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static void waitUntilWaiting(Thread t) {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the waiter never parked");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static Thread start(Runnable r) {
        Thread t = new Thread(r, "waiter");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void join(Thread t) throws InterruptedException {
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(t.isAlive(), "hang guard: the waiter never returned");
    }

    /** The nodes of threads in get (by reflection: the field is the implementation's). */
    private static Object waiters(IoFuture<?> f) throws ReflectiveOperationException {
        java.lang.reflect.Field field = IoFuture.class.getDeclaredField("waiters");
        field.setAccessible(true);
        return field.get(f);
    }

    @Test
    void aValueOrAFailureIsWhatGetReturnsOrThrows() throws Exception {
        IoFuture<Integer> ok = new IoFuture<>(() -> { }, new Channel());
        assertFalse(ok.isDone());
        ok.complete(5, null);
        ok.complete(6, null); // once only
        assertTrue(ok.isDone());
        assertFalse(ok.isCancelled());
        assertEquals(5, ok.get());
        assertEquals(5, ok.get(0, TimeUnit.SECONDS));
        assertFalse(ok.cancel(true));
        IoFuture<Integer> failed = new IoFuture<>(() -> { }, new Channel());
        IOException error = new IOException("failed on purpose");
        failed.complete(null, error);
        assertSame(error, assertThrows(ExecutionException.class, failed::get).getCause());
        IoFuture<Integer> pending = new IoFuture<>(() -> { }, new Channel());
        assertThrows(TimeoutException.class, () -> pending.get(0, TimeUnit.SECONDS));
        assertThrows(TimeoutException.class, () -> pending.get(-1, TimeUnit.SECONDS));
        assertThrows(TimeoutException.class, () -> pending.get(1, TimeUnit.MILLISECONDS));
    }

    @Test
    void cancelKillsTheDirectionBeforeAWaiterSeesItAndWinsOnce() throws Exception {
        AtomicReference<IoFuture<Integer>> self = new AtomicReference<>();
        AtomicInteger kills = new AtomicInteger();
        AtomicBoolean doneDuringKill = new AtomicBoolean();
        Channel channel = new Channel();
        IoFuture<Integer> f = new IoFuture<>(() -> {
            kills.incrementAndGet();
            doneDuringKill.set(self.get().isDone());
        }, channel);
        self.set(f);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicInteger killsSeen = new AtomicInteger(-1);
        Thread waiter = start(() -> {
            try {
                f.get();
            } catch (Throwable e) {
                killsSeen.set(kills.get());
                seen.set(e);
            }
        });
        waitUntilWaiting(waiter);
        assertTrue(f.cancel(false));
        join(waiter);
        assertInstanceOf(CancellationException.class, seen.get());
        assertEquals(1, killsSeen.get(), "the direction was killed before the waiter saw the cancel");
        assertFalse(doneDuringKill.get(), "nobody sees the cancel before the kill");
        assertFalse(f.cancel(true), "a second cancel loses");
        f.complete(1, null);
        assertTrue(f.isCancelled());
        assertThrows(CancellationException.class, f::get);
        assertEquals(1, kills.get());
        assertEquals(0, channel.closes.get(), "cancel(false) leaves the channel open");
        IoFuture<Integer> interrupting = new IoFuture<>(() -> { }, channel);
        assertTrue(interrupting.cancel(true));
        assertEquals(1, channel.closes.get(), "cancel(true) closes the channel");
    }

    @Test
    void anInterruptedWaiterLeavesAndTheOthersStillGetTheValue() throws Exception {
        IoFuture<Integer> f = new IoFuture<>(() -> { }, new Channel());
        AtomicReference<Object> interrupted = new AtomicReference<>();
        Thread leaving = start(() -> {
            try {
                interrupted.set(f.get());
            } catch (Throwable e) {
                interrupted.set(e);
            }
        });
        AtomicReference<Object> staying = new AtomicReference<>();
        Thread waiting = start(() -> {
            try {
                staying.set(f.get(60, TimeUnit.SECONDS));
            } catch (Throwable e) {
                staying.set(e);
            }
        });
        waitUntilWaiting(leaving);
        waitUntilWaiting(waiting);
        leaving.interrupt();
        join(leaving);
        assertInstanceOf(InterruptedException.class, interrupted.get());
        f.complete(7, null);
        join(waiting);
        assertEquals(7, staying.get());
        Thread.currentThread().interrupt();
        try {
            assertEquals(7, f.get(), "a completed future returns its value whatever the interrupt status");
        } finally {
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    void waitersThatTimeOutOrAreInterruptedLeaveNoNode() throws Exception {
        IoFuture<Integer> f = new IoFuture<>(() -> { }, new Channel());
        for (int i = 0; i < 1000; i++) {
            assertThrows(TimeoutException.class, () -> f.get(1, TimeUnit.NANOSECONDS));
        }
        assertNull(waiters(f), "timed-out waiters were unlinked");
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, f::get);
        assertFalse(Thread.currentThread().isInterrupted(), "InterruptedException clears the status");
        assertNull(waiters(f));
    }

    @Test
    void completeAndCancelRaceAndEveryWaiterSeesTheWinner() throws Exception {
        for (int round = 0; round < 300; round++) {
            AtomicInteger kills = new AtomicInteger();
            IoFuture<Integer> f = new IoFuture<>(kills::incrementAndGet, new Channel());
            List<Thread> waiters = new ArrayList<>();
            List<Object> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 4; i++) {
                boolean timed = i % 2 == 0;
                waiters.add(start(() -> {
                    try {
                        outcomes.add(timed ? f.get(60, TimeUnit.SECONDS) : f.get());
                    } catch (Throwable e) {
                        outcomes.add(e.getClass());
                    }
                }));
            }
            CountDownLatch go = new CountDownLatch(1);
            AtomicBoolean cancelled = new AtomicBoolean();
            Thread canceller = start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                cancelled.set(f.cancel(false));
            });
            go.countDown();
            f.complete(round, null);
            join(canceller);
            for (Thread t : waiters) {
                join(t);
            }
            Object expected = cancelled.get() ? CancellationException.class : (Object) round;
            assertEquals(cancelled.get(), f.isCancelled());
            assertEquals(cancelled.get() ? 1 : 0, kills.get(), "the kill runs only for a cancel that won");
            for (Object o : outcomes) {
                assertEquals(expected, o, "round " + round);
            }
        }
    }
}
