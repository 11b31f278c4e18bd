package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.StartResult;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the processor does with an engine's answer to a start that is neither "done" nor "pending": DEFERRED is
 * retried even when nothing else is in the engine to complete, and anything thrown, {@link Error}s included, by a
 * start or by a cancel, ends the operation exactly once and frees its in-flight slot. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EngineStartRulesTest {

    private static final class Reads implements AsynchHandler {
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final CountDownLatch first = new CountDownLatch(1);

        @Override
        public void onReadCompleted(OpRead op) {
            errors.add(op.getError() == null ? new NullPointerException("success") : op.getError());
            first.countDown();
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    private static IoRequestWait parkedInput(AsynchChannel ch) {
        return () -> {
            ChannelSlot active = core(ch).input.active();
            return active == null ? null : ((ScriptedChannel) active.request.channel()).parked(true);
        };
    }

    @FunctionalInterface
    private interface IoRequestWait {
        Object parked();
    }

    private static void awaitParked(IoRequestWait w, String what) throws InterruptedException {
        for (int i = 0; i < 6000 && w.parked() == null; i++) {
            Thread.sleep(10); // hang guard: the retry runs on a demultiplexor thread
        }
        assertNotNull(w.parked(), what);
    }

    @ParameterizedTest(name = "{0} leader")
    @EnumSource(LeaderMode.class)
    void anEngineThatDefersWithNothingInFlightIsRetriedOnAnIdleDemultiplexor(LeaderMode leader) throws Exception {
        Reads h = new Reads();
        ProactorConfig config = ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1)
                .leader(leader).build();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AtomicBoolean full = new AtomicBoolean(true);
            engine.startPolicy = r -> full.getAndSet(false) ? StartResult.DEFERRED : StartResult.PENDING;
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.read(ByteBuffer.allocate(8)); // deferred by the engine; nothing else is in it to complete
            awaitParked(parkedInput(ch), "the deferred read was never retried: it waits for a completion that"
                    + " will not come");
            assertTrue(engine.complete((ScriptedChannel) core(ch).input.active().request.channel(), true, 1));
            assertTrue(h.first.await(60, TimeUnit.SECONDS), "hang guard: the read completes");
        }
    }

    @Test
    void anErrorThrownByTheEngineAtStartEndsTheOperationOnceAndFreesItsSlot() throws Exception {
        Reads h = new Reads();
        ProactorConfig config = ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1)
                .maxInFlight(1).build();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            OutOfMemoryError injected = new OutOfMemoryError("injected: bounce buffer");
            AtomicBoolean fail = new AtomicBoolean(true);
            engine.startPolicy = r -> {
                if (fail.getAndSet(false)) {
                    throw injected;
                }
                return StartResult.PENDING;
            };
            AsynchChannel first = AsynchChannel.openSocket(demux, h);
            first.read(ByteBuffer.allocate(8)); // must not throw: the operation carries the error
            assertTrue(h.first.await(60, TimeUnit.SECONDS), "hang guard: the failed start completes the read");
            assertEquals(1, h.errors.size());
            assertInstanceOf(OutOfMemoryError.class, h.errors.get(0));
            AsynchChannel second = AsynchChannel.openSocket(demux, h);
            second.read(ByteBuffer.allocate(8));
            awaitParked(parkedInput(second), "the only in-flight slot leaked with the failed start");
        }
    }

    /**
     * An engine whose cancel throws (a bug of the engine) must not leave the cancelled operation pending for ever,
     * its slot taken and the operations deferred behind it stuck: the operation ends with its cancel reason, the
     * engine's exception suppressed in it, and the next one gets the slot. The caller of {@code cancel()} sees no
     * exception: the operation reports it.
     */
    @Test
    void anExceptionThrownByTheEnginesCancelEndsTheOperationOnceAndFreesItsSlot() throws Exception {
        Reads h = new Reads();
        ProactorConfig config = ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1)
                .maxInFlight(1).build();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel first = AsynchChannel.openSocket(demux, h);
            first.read(ByteBuffer.allocate(8));
            awaitParked(parkedInput(first), "the first read is pending in the engine");
            AsynchChannel second = AsynchChannel.openSocket(demux, h);
            second.read(ByteBuffer.allocate(8)); // deferred: the only in-flight slot is the first read's
            IllegalStateException injected = new IllegalStateException("injected: cancel failed");
            engine.failNextCancel.set(injected);
            first.cancel(); // must not throw: the operation carries the failure
            assertTrue(h.first.await(60, TimeUnit.SECONDS), "hang guard: the cancelled read completes");
            assertEquals(1, h.errors.size());
            Throwable error = h.errors.get(0);
            assertInstanceOf(OperationCancelledException.class, error);
            assertEquals(List.of(injected), List.of(error.getSuppressed()));
            awaitParked(parkedInput(second), "the in-flight slot leaked with the failed cancel");
        }
    }
}
