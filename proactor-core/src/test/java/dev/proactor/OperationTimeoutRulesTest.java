package dev.proactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.spi.OpKind;
import dev.proactor.testengine.ScriptedEngineProvider;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import java.nio.ByteBuffer;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
            OpRead op = new OpRead(ch);
            op.request.prepare(OpKind.READ, ch.engineChannel()).buffer(ByteBuffer.allocate(8));
            // The submitting thread begins the use and arms its timer, then loses the processor before admission;
            // the timer fires meanwhile.
            int use = ch.input.beginUse(op);
            ch.timeOut(op, use);
            ChannelOp now = ch.input.submit(op, false);
            assertSame(op, now, "the read becomes active when admitted");
            ch.processor().start(now);
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
            ScriptedChannel ech = (ScriptedChannel) ch.input.active().request.channel();
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelOp second = waitingSecond(ch);
            assertNotNull(second);
            ch.timeOut(second, second.use);
            assertTrue(engine.complete(ech, true, 3));
            assertEquals(2, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(3L, 0L), h.bytes);
            assertNull(h.errors.get(0));
            assertInstanceOf(InterruptedByTimeoutException.class, h.errors.get(1));
        }
    }

    /** The second read of {@code ch}, waiting behind the active one. */
    private static ChannelOp waitingSecond(AsynchChannel ch) {
        assertEquals(1, ch.input.waitingCount());
        return ch.input.waitingHead();
    }

    @Test
    void aLateTimerCallbackNeverTimesOutTheNextUseOfARecycledOperation() throws Exception {
        RecordedReads h = new RecordedReads();
        try (Demultiplexor demux = userDriven()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            ChannelOp op = ch.input.active();
            ScriptedChannel ech = (ScriptedChannel) op.request.channel();
            OpTimeout timeout = op.timeout;
            OpTimer firstTimer = timeout.timer;
            // The timer fires: the dispatcher takes it (here: takes it out of the queue by hand) and its callback
            // begins on another thread, which then loses the processor before it reads anything.
            assertTrue(demux.dispatcher().cancel(firstTimer));
            // Meanwhile the read completes and is dispatched; the next timed read reuses the recycled object.
            assertTrue(engine.complete(ech, true, 3));
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            ch.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, null);
            assertSame(op, ch.input.active(), "the next read reuses the recycled operation object");
            // The late callback of the first use runs now.
            timeout.onTimerCompleted(firstTimer);
            assertTrue(engine.complete(ech, true, 5), "the next read was taken back by a stale timeout");
            assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
            assertEquals(List.of(3L, 5L), h.bytes);
            assertNull(h.errors.get(1), "the next read failed: " + h.errors.get(1));
        }
    }
}
