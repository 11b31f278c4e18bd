package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.NotifyLevel;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dispatcher's rules for leadership, timeouts, interrupts, fatal errors and close, driven through exact
 * interleavings by the scripted engine and user threads in {@code handleEvents}. Waits are bounded as hang
 * guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DispatcherRulesTest {

    private final ExecutorService users = Executors.newCachedThreadPool();

    @AfterEach
    void stopUsers() {
        users.shutdownNow();
    }

    private static ProactorConfig config(int threads) {
        return ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(threads).build();
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(60, TimeUnit.SECONDS), "hang guard: " + what);
    }

    private static <T> T get(Future<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    /** Waits (bounded) until {@code t} sleeps (a follower waiting on the dispatcher's condition). */
    private static void awaitSleeping(Thread t) throws InterruptedException {
        for (int i = 0; i < 6000; i++) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("hang guard: " + t + " never slept");
    }

    private static ScriptedChannel engineChannel(AsynchChannel ch) {
        return (ScriptedChannel) core(ch).input.active().request.channel();
    }

    /** Counts read completions; everything else is unexpected. */
    private static class Reads implements AsynchHandler {
        final AtomicInteger count = new AtomicInteger();
        final CountDownLatch first = new CountDownLatch(1);
        final AtomicReference<Throwable> error = new AtomicReference<>();

        @Override
        public void onReadCompleted(OpRead op) {
            error.compareAndSet(null, op.getError());
            count.incrementAndGet();
            first.countDown();
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    /** Runs handleEvents on a fresh thread, telling the test which thread it is. */
    private Future<Integer> userThread(Demultiplexor demux, long timeoutMillis, AtomicReference<Thread> self) {
        CountDownLatch started = new CountDownLatch(1);
        Future<Integer> f = users.submit(() -> {
            self.set(Thread.currentThread());
            started.countDown();
            return demux.handleEvents(timeoutMillis, TimeUnit.MILLISECONDS);
        });
        try {
            await(started, "user thread start");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return f;
    }

    // ------------------------------------------------------------------------------------ leadership passes on

    @Test
    void aLeaderLeavingOnTimeoutHandsTheIoToASleepingFollower() throws Exception {
        Reads h = new Reads();
        try (Demultiplexor demux = Demultiplexor.open(config(1))) { // no pool: user threads only
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8));
            AtomicReference<Thread> leader = new AtomicReference<>();
            Future<Integer> leading = userThread(demux, 300, leader);
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            AtomicReference<Thread> follower = new AtomicReference<>();
            Future<Integer> following = userThread(demux, -1, follower);
            awaitSleeping(follower.get());
            assertEquals(0, get(leading)); // the leader's timeout ran out: it left
            engine.complete(engineChannel(ch), true, 4); // only a poll finds this
            assertEquals(1, get(following), "the follower never took over the leadership");
            assertEquals(1, h.count.get());
        }
    }

    @Test
    void aLeaderLeavingWithAnExceptionHandsTheIoToASleepingFollower() throws Exception {
        Reads h = new Reads();
        try (Demultiplexor demux = Demultiplexor.open(config(1))) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8));
            AtomicReference<Thread> leader = new AtomicReference<>();
            Future<Integer> leading = userThread(demux, -1, leader);
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            AtomicReference<Thread> follower = new AtomicReference<>();
            Future<Integer> following = userThread(demux, -1, follower);
            awaitSleeping(follower.get());
            // The leader's wait returns empty-handed, it leads again (the follower sleeps), and that wait fails.
            engine.failNextWait.set(new IllegalStateException("injected wait failure"));
            engine.interrupt();
            ExecutionException thrown = assertThrows(ExecutionException.class, () -> get(leading));
            assertInstanceOf(IllegalStateException.class, thrown.getCause());
            engine.complete(engineChannel(ch), true, 4); // only a poll finds this
            assertEquals(1, get(following), "nobody polled after the leader left with an exception");
        }
    }

    @Test
    void aFollowerInterruptedWhileAWakeUpIsPostedPassesTheWorkOn() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        Demultiplexor demux = Demultiplexor.open(config(1));
        {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            OpTimer timer = demux.newTimer(new Reads() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    fired.countDown();
                }
            });
            AtomicReference<Thread> leader = new AtomicReference<>();
            Future<Integer> leading = userThread(demux, -1, leader);
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            AtomicReference<Thread> follower = new AtomicReference<>();
            Future<Integer> following = userThread(demux, -1, follower);
            awaitSleeping(follower.get());
            Dispatcher d = core(demux).dispatcher();
            d.lock(); // the follower cannot act on either event before both happened
            try {
                follower.get().interrupt();
                for (int i = 0; i < 60_000 && d.hasConditionWaitersLocked(); i++) {
                    Thread.sleep(1); // hang guard: until the interrupt has taken the follower off the condition
                }
                demux.post(timer, NotifyLevel.FOLLOWER); // counted as a wake-up for the follower that is leaving
            } finally {
                d.unlock();
            }
            assertEquals(0, get(following)); // an interrupted user thread returns, its status kept
            await(fired, "the posted completion was dispatched");
            demux.close(); // the leader may still wait: close interrupts it
            assertEquals(1, get(leading), "the leader was interrupted to dispatch the completion");
        }
    }

    // ------------------------------------------------------------------------------------ zero timeout polls

    @ParameterizedTest(name = "timeout {0} ms")
    @ValueSource(longs = {0, 1})
    void aZeroOrShortTimeoutCollectsWhatIsReadyWithoutBlocking(long timeoutMillis) throws Exception {
        Reads h = new Reads();
        try (Demultiplexor demux = Demultiplexor.open(config(1))) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8));
            engine.complete(engineChannel(ch), true, 4);
            assertEquals(1, demux.handleEvents(timeoutMillis, TimeUnit.MILLISECONDS));
            assertEquals(1, h.count.get());
            assertEquals(0, demux.handleEvents(0, TimeUnit.MILLISECONDS), "nothing more is ready");
        }
    }

    // ------------------------------------------------------------------------------------ interrupts

    @Test
    void aHandlerRestoringTheInterruptFlagDoesNotMakeAPoolThreadSpin() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger waitsAtCallback = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(config(1)).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            OpTimer timer = demux.newTimer(new Reads() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    waitsAtCallback.set(engine.waits.get()); // the only pool thread is here, not waiting
                    Thread.currentThread().interrupt(); // "restore the interrupt status", a common idiom
                    fired.countDown();
                }
            });
            demux.post(timer, NotifyLevel.STRONG);
            await(fired, "timer");
            for (int i = 0; i < 6000 && engine.waits.get() == waitsAtCallback.get(); i++) {
                Thread.sleep(10); // hang guard: until the pool thread waits again
            }
            assertTrue(engine.waits.get() > waitsAtCallback.get(), "hang guard: the pool never waited again");
            assertFalse(engine.waitedInterrupted.get(),
                    "a pool thread waited with its interrupt status set (a selector would return at once: spin)");
            assertEquals(1, demux.getLivePoolThreads());
        }
    }

    @Test
    void anInterruptedUserThreadReturnsWithItsStatusKept() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1))) {
            Thread.currentThread().interrupt();
            try {
                assertEquals(0, demux.handleEvents(-1, TimeUnit.MILLISECONDS));
                assertTrue(Thread.currentThread().isInterrupted());
            } finally {
                Thread.interrupted();
            }
        }
    }

    // ------------------------------------------------------------------------------------ fatal errors

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"StackOverflowError", "OutOfMemoryError", "RuntimeException"})
    void aHandlerThrowingAnErrorClosesItsChannelAndThePoolSurvives(String kind) throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch next = new CountDownLatch(2);
        try (Demultiplexor demux = Demultiplexor.open(config(2)).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, new Reads() {
                @Override
                public void onReadCompleted(OpRead op) {
                    failed.countDown();
                    switch (kind) {
                        case "StackOverflowError" -> throw new StackOverflowError("injected");
                        case "OutOfMemoryError" -> throw new OutOfMemoryError("injected");
                        default -> throw new IllegalStateException("injected");
                    }
                }
            });
            ch.read(ByteBuffer.allocate(8));
            engine.complete(engineChannel(ch), true, 1);
            await(failed, "the failing callback ran");
            OpTimer timer = demux.newTimer(new Reads() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    next.countDown();
                }
            });
            demux.post(timer, NotifyLevel.STRONG);
            for (int i = 0; i < 6000 && next.getCount() == 2; i++) {
                Thread.sleep(10);
            }
            demux.post(timer, NotifyLevel.STRONG);
            await(next, "the pool still dispatches");
            for (int i = 0; i < 6000 && ch.isOpen(); i++) {
                Thread.sleep(10);
            }
            assertFalse(ch.isOpen(), "the failing handler's channel was not closed");
            assertEquals(2, demux.getLivePoolThreads(), "a pool thread died");
            assertFalse(demux.isClosed());
        }
    }

    @Test
    void anErrorFromTheEngineClosesTheDemultiplexorLoudly() throws Exception {
        Reads h = new Reads();
        Demultiplexor demux = Demultiplexor.open(config(2));
        ScriptedEngine engine = ScriptedEngineProvider.last();
        AsynchChannel ch = AsynchChannel.openSocket(demux, h);
        ch.read(ByteBuffer.allocate(8));
        InternalError fatal = new InternalError("injected engine failure");
        engine.failNextWait.set(fatal);
        demux.start();
        await(h.first, "the pending read completes at close");
        for (int i = 0; i < 6000 && !demux.isClosed(); i++) {
            Thread.sleep(10);
        }
        assertTrue(demux.isClosed(), "the demultiplexor stayed open with a dead pool");
        assertSame(fatal, demux.getCloseCause());
        assertInstanceOf(AsynchronousCloseException.class, h.error.get());
        assertThrows(IllegalStateException.class, () -> AsynchChannel.openSocket(demux, h));
    }

    // ------------------------------------------------------------------------------------ close

    @Test
    void closeWaitsForAUserThreadLeadingTheEngine() throws Exception {
        Demultiplexor demux = Demultiplexor.open(config(1));
        {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AtomicReference<Thread> leader = new AtomicReference<>();
            Future<Integer> leading = userThread(demux, -1, leader);
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            demux.close();
            assertFalse(engine.closedUnderAWaiter.get(), "the engine was closed under a thread waiting in it");
            assertTrue(engine.isClosed());
            get(leading);
        }
    }

    @Test
    void collectingAtCloseNeverReapsBesideALeader() throws Exception {
        Demultiplexor demux = Demultiplexor.open(config(1));
        try {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            Processor processor = core(AsynchChannel.openSocket(demux, new Reads())).processor();
            AtomicReference<Thread> leader = new AtomicReference<>();
            Future<Integer> leading = userThread(demux, -1, leader);
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            processor.collectAtClose(); // e.g. a close racing with a user thread that took leadership
            assertFalse(engine.quiescedUnderAWaiter.get(),
                    "collectAtClose let the engine reap while a leader waited in it");
            demux.close();
            get(leading);
        } finally {
            demux.close();
        }
    }

    @Test
    void scheduledTimersNeverFireAtCloseButPostedCompletionsRunOnce() throws Exception {
        List<OpTimer> fired = new java.util.concurrent.CopyOnWriteArrayList<>();
        Demultiplexor demux = Demultiplexor.open(config(1)); // no pool: nothing dispatches until close
        Reads h = new Reads() {
            @Override
            public void onTimerCompleted(OpTimer op) {
                fired.add(op);
            }
        };
        OpTimer posted = demux.newTimer(h);
        demux.post(posted, NotifyLevel.NONE);
        demux.newTimer(h).schedule(0, TimeUnit.NANOSECONDS);
        demux.newTimer(h).schedule(1, TimeUnit.HOURS);
        OpTimer postedThenScheduled = demux.newTimer(h);
        demux.post(postedThenScheduled, NotifyLevel.NONE);
        postedThenScheduled.schedule(0, TimeUnit.NANOSECONDS);
        demux.close();
        assertEquals(List.of(posted), fired, "only the posted completion runs at close, once");
        assertThrows(IllegalStateException.class, () -> demux.newTimer(h).schedule(1, TimeUnit.SECONDS));
    }
}
