package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.OpKind;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timeout belongs to the one use of an operation object it was armed for: it times that use out wherever the
 * use is (not yet admitted, waiting, active), and never a later use of the recycled object. The racy steps of
 * {@link AsynchChannel}'s timed submission are taken by hand, in the order a preempted thread could take them,
 * on a demultiplexor this test thread drives (no pool).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperationTimeoutRulesTest {

    private static Demultiplexor userDriven() throws Exception {
        return Demultiplexor.open(ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1).build());
    }

    @Test
    void aTimeoutFiringBeforeItsOperationIsAdmittedStillTimesItOut() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ChannelSlot op = core(ch).newOp(OpKind.READ);
            op.request.prepare(OpKind.READ, core(ch).engineChannel()).buffer(ByteBuffer.allocate(8));
            // The submitting thread begins the use and arms its timer, then loses the processor before admission;
            // the timer fires meanwhile.
            int use = core(ch).input.beginUse(op);
            core(ch).timeOut(op, use);
            ChannelSlot now = core(ch).input.submit(op, false);
            assertSame(op, now, "the read becomes active when admitted");
            core(ch).processor().start(now);
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(1, h.errors.size());
            assertInstanceOf(InterruptedByTimeoutException.class, h.errors.get(0),
                    "the timeout that fired before admission was lost: the read ran without one");
        }
    }

    @Test
    void aTimeoutFiringWhileItsOperationWaitsTimesItOutWhenItBecomesActive() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8));
            ScriptedChannel ech = (ScriptedChannel) core(ch).input.active().request.channel();
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelSlot second = waitingSecond(ch);
            assertNotNull(second);
            core(ch).timeOut(second, second.use);
            assertTrue(engine.complete(ech, true, 3));
            assertEquals(2, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(3L, 0L), h.bytes);
            assertNull(h.errors.get(0));
            assertInstanceOf(InterruptedByTimeoutException.class, h.errors.get(1));
        }
    }

    /** The second read of {@code ch}, waiting behind the active one. */
    private static ChannelSlot waitingSecond(AsynchChannel ch) {
        assertEquals(1, core(ch).input.waitingCount());
        return core(ch).input.waitingHead();
    }

    @Test
    void aLateTimerCallbackNeverTimesOutTheNextUseOfARecycledOperation() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelSlot op = core(ch).input.active();
            ScriptedChannel ech = (ScriptedChannel) op.request.channel();
            OpTimeout timeout = op.timeout;
            TimerSlot firstTimer = timeout.timer;
            // The timer fires: the dispatcher takes it (here: takes it out of the queue by hand) and its callback
            // begins on another thread, which then loses the processor before it reads anything.
            assertTrue(core(demux).dispatcher().cancel(firstTimer));
            // Meanwhile the read completes and is dispatched; the next timed read reuses the recycled object.
            assertTrue(engine.complete(ech, true, 3));
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            assertSame(op, core(ch).input.active(), "the next read reuses the recycled operation object");
            // The late callback of the first use runs now.
            timeout.onTimerCompleted(null); // the firing timer is not read
            assertTrue(engine.complete(ech, true, 5), "the next read was taken back by a stale timeout");
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(3L, 5L), h.bytes);
            assertNull(h.errors.get(1), "the next read failed: " + h.errors.get(1));
        }
    }

    @Test
    void aTimeoutsCancelReachingTheEngineLateNeverTakesBackTheNextUseOfTheOperation() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelSlot op = core(ch).input.active();
            ScriptedChannel ech = (ScriptedChannel) op.request.channel();
            // The timer fires and marks the read; its thread passes the processor's checks and loses the processor
            // just before the engine's cancel looks at the request. Meanwhile the read completes, is dispatched and
            // recycled, and the next read (without a timeout) takes an operation object and parks in the engine.
            AtomicBoolean once = new AtomicBoolean();
            AtomicBoolean nextParked = new AtomicBoolean();
            engine.cancelHook = r -> {
                if (once.compareAndSet(false, true) && engine.complete(ech, true, 3)
                        && demux.handleEvents(0, TimeUnit.MILLISECONDS) == 1) {
                    ch.read(ByteBuffer.allocate(8));
                    nextParked.set(ech.parked(true) != null);
                }
            };
            core(ch).timeOut(op, op.use);
            assertTrue(nextParked.get(), "the first read completed and the next one parked while the cancel paused");
            assertTrue(engine.complete(ech, true, 5), "the late cancel took the next read back from the engine");
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(3L, 5L), h.bytes);
            assertNull(h.errors.get(1), "the next read failed: " + h.errors.get(1));
            assertTrue(freeReads(ch).contains(op), "the operation object went back to its free list after the cancel");
        }
    }

    @Test
    void aTimeoutsCancelReachingTheDeferredQueueLateNeverEndsTheNextUseOfTheOperation() throws Exception {
        RecordedReads ha = new RecordedReads();
        RecordedReads hb = new RecordedReads();
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.builder().engine(ScriptedEngineProvider.NAME)
                .threads(1).maxInFlight(1).build())) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel a = AsynchChannel.openSocket(demux, ha);
            AsynchChannel b = AsynchChannel.openSocket(demux, hb);
            a.read(ByteBuffer.allocate(8)); // takes the one slot
            ScriptedChannel ea = (ScriptedChannel) core(a).input.active().request.channel();
            b.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null); // waits for the slot
            ChannelSlot op = core(b).input.active();
            ScriptedChannel eb = (ScriptedChannel) op.request.channel();
            // The timer's thread marks b's read and passes the processor's check, then waits for the deferred
            // queue's lock, which this thread holds while it runs what the others do meanwhile.
            Object queue = ModelChecking.field(ModelChecking.field(ModelChecking.processor(b), "deferred"),
                    "deferred");
            Thread timer = new Thread(() -> core(b).timeOut(op, op.use), "late-timer");
            synchronized (queue) {
                timer.start();
                waitUntilBlocked(timer);
                // a's read completes: its slot goes to b's read, which ends with its timeout (marked), is
                // dispatched and recycled; a reads again (the slot is taken) and b's next read (without a
                // timeout) takes an operation object and waits for the slot.
                assertTrue(engine.complete(ea, true, 1));
                ReadJournal.drain(demux);
                assertEquals(1, hb.errors.size(), "b's read ended");
                a.read(ByteBuffer.allocate(8));
                b.read(ByteBuffer.allocate(8));
            }
            timer.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(timer.isAlive(), "hang guard: the timer's thread never returned");
            assertEquals(0, demux.handleEvents(0, TimeUnit.MILLISECONDS),
                    () -> "the late cancel ended b's next read: bytes " + hb.bytes + ", errors " + hb.errors);
            assertTrue(engine.complete(ea, true, 2));
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertTrue(engine.complete(eb, true, 5), "b's next read reached the engine once the slot was free");
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(1L, 2L), ha.bytes);
            assertInstanceOf(InterruptedByTimeoutException.class, hb.errors.get(0));
            assertEquals(5L, hb.bytes.get(1));
            assertNull(hb.errors.get(1), "b's next read failed: " + hb.errors.get(1));
        }
    }

    @Test
    void anOperationHeldBackForACloseThatEndedMeanwhileIsFreedWithItsTimerOutOfTheQueue() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelSlot op = core(ch).input.active();
            ScriptedChannel ech = (ScriptedChannel) op.request.channel();
            // A close marked the direction and its read, then lost the processor before its cancel; the read
            // completes and is dispatched meanwhile (its object is held back, not freed, so not released either).
            ChannelDirection.Marked marked = core(ch).input.abort(java.nio.channels.AsynchronousCloseException::new, true);
            assertSame(op, marked.op());
            assertTrue(engine.complete(ech, true, 3));
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            marked.cancel(core(ch).processor());
            assertEquals(List.of(3L), h.bytes);
            assertTrue(freeReads(ch).contains(op), "the object is free once the cancel returned");
            assertFalse(core(demux).dispatcher().cancel(op.timeout.timer), "the closed channel's timer was left queued");
        }
    }

    /** Waits (a hang guard, not a timing assertion) until {@code t} is blocked on a monitor. */
    private static void waitUntilBlocked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (t.getState() != Thread.State.BLOCKED) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + t + " never blocked, " + t.getState());
            Thread.sleep(1);
        }
    }

    /** The read operations on {@code ch}'s free list, taken off it. */
    private static List<ChannelSlot> freeReads(AsynchChannel ch) {
        List<ChannelSlot> free = new java.util.ArrayList<>();
        for (ChannelSlot op = core(ch).input.takeFree(OpKind.READ); op != null; op = core(ch).input.takeFree(OpKind.READ)) {
            free.add(op);
        }
        return free;
    }
}
