package dev.proactor.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchHandler;
import dev.proactor.Internals;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.NotifyLevel;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ManualEngineProvider;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The leader/follower dispatcher on its own (with an engine that does no I/O): posts from foreign threads,
 * timers, user threads in handleEvents, close. Waits are bounded as hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DispatcherTest {

    static Stream<ProactorConfig> pools() {
        List<ProactorConfig> all = new ArrayList<>();
        for (int threads : new int[] {1, 2, 4}) {
            for (LeaderMode mode : LeaderMode.values()) {
                all.add(config(threads, mode));
            }
        }
        return all.stream();
    }

    private static ProactorConfig config(int threads, LeaderMode mode) {
        return ProactorConfig.builder().engine(ManualEngineProvider.NAME).threads(threads).leader(mode).build();
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(60, TimeUnit.SECONDS), "hang guard: completions were lost");
    }

    /** A handler that counts timer completions. */
    private static AsynchHandler counting(CountDownLatch latch, AtomicInteger count) {
        return new TimerOnlyHandler() {
            @Override
            public void onTimerCompleted(OpTimer op) {
                count.incrementAndGet();
                latch.countDown();
            }
        };
    }

    /** Handlers of these tests only get timer completions. */
    private abstract static class TimerOnlyHandler implements AsynchHandler {
        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError();
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError();
        }
    }

    @ParameterizedTest
    @MethodSource("pools")
    void postsFromManyForeignThreadsAreAllDispatched(ProactorConfig config) throws Exception {
        int posters = 8;
        int each = 3_000;
        CountDownLatch done = new CountDownLatch(posters * each);
        AtomicInteger count = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            AsynchHandler h = counting(done, count);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < posters; p++) {
                Thread t = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        demux.post(demux.newTimer(h), NotifyLevel.STRONG);
                        if (i % 97 == 0) {
                            Thread.yield(); // let the pool go idle now and then: wake-ups must not get lost
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            await(done);
        }
        assertEquals(posters * each, count.get());
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aPostOfAnIdlePoolIsDispatchedEveryTime(ProactorConfig config) throws Exception {
        // Ping-pong between a foreign thread and the pool: each post finds the pool asleep.
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            for (int i = 0; i < 500; i++) {
                CountDownLatch one = new CountDownLatch(1);
                demux.post(demux.newTimer(counting(one, new AtomicInteger())), NotifyLevel.STRONG);
                await(one);
            }
        }
    }

    @Test
    void timersFireInDeadlineOrder() throws Exception {
        int n = 400;
        Random r = new Random(1);
        List<OpTimer> fired = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(n);
        try (Demultiplexor demux = Demultiplexor.open(config(1, LeaderMode.SHARED)).start()) {
            AsynchHandler h = new TimerOnlyHandler() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    synchronized (fired) {
                        fired.add(op);
                    }
                    done.countDown();
                }
            };
            for (int i = 0; i < n; i++) {
                demux.newTimer(h).schedule(r.nextInt(30_000), TimeUnit.MICROSECONDS);
            }
            await(done);
        }
        for (int i = 1; i < n; i++) {
            TimerSlot a = Internals.slot(fired.get(i - 1));
            TimerSlot b = Internals.slot(fired.get(i));
            assertTrue(a.deadline - b.deadline < 0 || (a.deadline == b.deadline && a.sequence < b.sequence),
                    "timer " + i + " fired before an earlier one");
        }
    }

    @ParameterizedTest
    @MethodSource("pools")
    void cancelledTimersNeverFire(ProactorConfig config) throws Exception {
        int n = 1_000;
        AtomicIntegerArray fires = new AtomicIntegerArray(n);
        boolean[] cancelled = new boolean[n];
        Random r = new Random(3);
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            AsynchHandler h = new TimerOnlyHandler() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    fires.incrementAndGet((Integer) op.getAttachment());
                }
            };
            long maxDelayMicros = 0;
            for (int i = 0; i < n; i++) {
                OpTimer t = demux.newTimer(h);
                long delay = r.nextInt(20_000);
                maxDelayMicros = Math.max(maxDelayMicros, delay);
                t.schedule(delay, TimeUnit.MICROSECONDS, i);
                if (i % 2 == 1) {
                    cancelled[i] = t.cancel();
                    assertFalse(t.isPending());
                }
            }
            // A sentinel due after every other timer: once it fired, every live timer has fired too.
            CountDownLatch sentinel = new CountDownLatch(1);
            demux.newTimer(counting(sentinel, new AtomicInteger())).schedule(maxDelayMicros + 1_000,
                    TimeUnit.MICROSECONDS);
            await(sentinel);
            // Let any wrongly live timer surface through the same queue before checking.
            CountDownLatch flush = new CountDownLatch(1);
            demux.post(demux.newTimer(counting(flush, new AtomicInteger())), NotifyLevel.STRONG);
            await(flush);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(cancelled[i] ? 0 : 1, fires.get(i), "fires of timer " + i + " (cancelled=" + cancelled[i] + ")");
        }
    }

    @Test
    void rescheduleMovesAPendingTimerAndItFiresOnce() throws Exception {
        AtomicInteger count = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        try (Demultiplexor demux = Demultiplexor.open(config(2, LeaderMode.SHARED)).start()) {
            OpTimer t = demux.newTimer(counting(done, count));
            t.schedule(1, TimeUnit.HOURS);
            assertTrue(t.isPending());
            t.schedule(1, TimeUnit.MILLISECONDS);
            await(done);
            CountDownLatch flush = new CountDownLatch(1);
            demux.post(demux.newTimer(counting(flush, new AtomicInteger())), NotifyLevel.STRONG);
            await(flush);
            assertFalse(t.isPending());
            assertFalse(t.cancel(), "a fired timer is no longer pending");
        }
        assertEquals(1, count.get());
    }

    @Test
    void aUserThreadCanDriveTheProactorWithHandleEvents() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1, LeaderMode.SHARED))) {
            ConcurrentLinkedQueue<Thread> ranOn = new ConcurrentLinkedQueue<>();
            OpTimer t = demux.newTimer(new TimerOnlyHandler() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    ranOn.add(Thread.currentThread());
                }
            });
            assertEquals(0, demux.handleEvents(10, TimeUnit.MILLISECONDS), "nothing to do: times out");
            demux.post(t, NotifyLevel.NONE);
            assertEquals(1, demux.handleEvents(60, TimeUnit.SECONDS));
            assertSame(Thread.currentThread(), ranOn.peek());
            t.schedule(1, TimeUnit.MILLISECONDS);
            assertEquals(1, demux.handleEvents(60, TimeUnit.SECONDS), "a timer is served by the waiting thread");
        }
    }

    /** A demultiplexor whose construction fails after its engine was made closes that engine: no descriptor leaks. */
    @Test
    void aFailureWhileOpeningClosesTheEngineAlreadyMade() {
        IllegalStateException failure = new IllegalStateException("scripted");
        ScriptedEngineProvider.FAIL_NEXT_SETUP.set(failure);
        ProactorConfig config = ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).build();
        assertSame(failure, assertThrows(IllegalStateException.class, () -> Demultiplexor.open(config)));
        assertTrue(ScriptedEngineProvider.last().isClosed(), "the engine made before the failure was left open");
    }

    /** A factory that fails half-way leaves the pool as it was: the threads it made before are not started. */
    @Test
    void aThreadFactoryReturningNullStartsNoThreadOfThatCall() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1, LeaderMode.SHARED))) {
            List<Thread> made = new ArrayList<>();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> demux.start(3, r -> {
                if (made.size() == 2) {
                    return null;
                }
                Thread t = new Thread(r);
                t.setDaemon(true);
                made.add(t);
                return t;
            }));
            assertTrue(e.getMessage().contains("returned no thread"), e.getMessage());
            assertEquals(0, demux.getPoolSize());
            assertEquals(0, demux.getLivePoolThreads());
            for (Thread t : made) {
                assertEquals(Thread.State.NEW, t.getState());
            }
            demux.start(2);
            assertEquals(2, demux.getPoolSize());
        }
    }

    @Test
    void inOwnerModeOnePoolThreadAloneWaitsInTheEngine() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(2, LeaderMode.OWNER))) {
            assertThrows(IllegalStateException.class, () -> demux.handleEvents(0, TimeUnit.MILLISECONDS),
                    "before start() nobody would ever poll");
            demux.start();
            String name = demux.toString().substring(0, demux.toString().indexOf('['));
            int n = 200;
            CountDownLatch done = new CountDownLatch(2 * n);
            AtomicInteger count = new AtomicInteger();
            ExecutorService users = Executors.newFixedThreadPool(2);
            try {
                for (int u = 0; u < 2; u++) {
                    users.submit(() -> {
                        while (done.getCount() > 0) {
                            demux.handleEvents(5, TimeUnit.MILLISECONDS); // dispatches, never polls
                        }
                        return null;
                    });
                }
                for (int i = 0; i < n; i++) {
                    demux.newTimer(counting(done, count)).schedule(i % 20, TimeUnit.MILLISECONDS);
                    demux.post(demux.newTimer(counting(done, count)), NotifyLevel.STRONG);
                }
                await(done);
            } finally {
                users.shutdown();
            }
            Set<Thread> waiters = ManualEngineProvider.waiters(name + "-primary");
            assertEquals(1, waiters.size(), "threads that waited in the engine: " + waiters);
            assertTrue(waiters.iterator().next().getName().startsWith(name + "-"), "the owner is a pool thread");
        }
    }

    @Test
    void offloadedWorkReachesTheEngineAndAnEndWithoutABeginIsRefused() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1, LeaderMode.SHARED)).start()) {
            String engine = demux.toString().substring(0, demux.toString().indexOf('[')) + "-primary";
            demux.beginOffload();
            demux.beginOffload();
            assertEquals(2, ManualEngineProvider.offloads(engine));
            demux.endOffload();
            demux.endOffload();
            assertEquals(0, ManualEngineProvider.offloads(engine));
            assertThrows(IllegalStateException.class, demux::endOffload);
            assertEquals(0, ManualEngineProvider.offloads(engine), "the refused end never reached the engine");
        }
    }

    @Test
    void aThrowingTimerHandlerDoesNotStopThePool() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1, LeaderMode.SHARED)).start()) {
            OpTimer bad = demux.newTimer(new TimerOnlyHandler() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    throw new IllegalStateException("timer failure on purpose (test)");
                }
            });
            demux.post(bad, NotifyLevel.STRONG);
            CountDownLatch after = new CountDownLatch(1);
            demux.post(demux.newTimer(counting(after, new AtomicInteger())), NotifyLevel.STRONG);
            await(after);
        }
    }

    @Test
    void closeDropsPendingTimersAndRejectsNewWork() throws Exception {
        AtomicInteger count = new AtomicInteger();
        Demultiplexor demux = Demultiplexor.open(config(2, LeaderMode.DEDICATED)).start();
        OpTimer t = demux.newTimer(counting(new CountDownLatch(1), count));
        t.schedule(50, TimeUnit.MILLISECONDS);
        demux.close();
        demux.close(); // idempotent
        assertTrue(demux.isClosed());
        assertThrows(IllegalStateException.class, () -> t.schedule(1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalStateException.class, () -> demux.post(t, NotifyLevel.STRONG));
        assertThrows(IllegalStateException.class, demux::start);
        Thread.sleep(100); // not a timing assertion: gives a wrongly surviving timer the chance to fire
        assertEquals(0, count.get());
    }

    @Test
    void aTimerOfAnotherDemultiplexorIsRejected() throws IOException {
        try (Demultiplexor a = Demultiplexor.open(config(1, LeaderMode.SHARED));
             Demultiplexor b = Demultiplexor.open(config(1, LeaderMode.SHARED))) {
            OpTimer t = a.newTimer(new TimerOnlyHandler() {
            });
            assertThrows(IllegalArgumentException.class, () -> b.post(t, NotifyLevel.STRONG));
            assertThrows(IllegalArgumentException.class, () -> t.schedule(-1, TimeUnit.SECONDS));
        }
    }
}
