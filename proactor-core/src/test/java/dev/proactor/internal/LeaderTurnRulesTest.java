package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When the engine is told that a leader of the demultiplexor's own will not be back in its wait soon
 * ({@link dev.proactor.spi.WaitStrategy#leaderAway()}): after every turn by default, before any handler runs; with
 * {@code proactor.promptHandlers} only when such a thread stops dispatching (waits as a follower or leaves its
 * loop), so its turn lasts across the handlers it runs. Driven by the scripted engine; waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeaderTurnRulesTest {

    private static ProactorConfig config(int threads, boolean promptHandlers) {
        return ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(threads)
                .promptHandlers(promptHandlers).build();
    }

    /** Records, when the read completes, on which thread and which leaderAway calls had been made by then. */
    private static final class FirstRead implements AsynchHandler {
        final CompletableFuture<List<Thread>> awaysAtHandler = new CompletableFuture<>();
        final CompletableFuture<Thread> handlerThread = new CompletableFuture<>();
        volatile ScriptedEngine engine;

        @Override
        public void onReadCompleted(OpRead op) {
            handlerThread.complete(Thread.currentThread());
            awaysAtHandler.complete(List.copyOf(engine.leaderAways));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    /** Starts a read, lets the one pool thread lead, completes the read and returns the handler's record. */
    private static FirstRead readThroughOnePoolThread(Demultiplexor demux) throws Exception {
        ScriptedEngine engine = ScriptedEngineProvider.last();
        FirstRead handler = new FirstRead();
        handler.engine = engine;
        AsynchChannel ch = AsynchChannel.openSocket(demux, handler);
        ch.read(ByteBuffer.allocate(8));
        demux.start(1);
        assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: the pool thread never led");
        ScriptedChannel channel = (ScriptedChannel) core(ch).input.active().request.channel();
        engine.complete(channel, true, 4);
        handler.awaysAtHandler.get(60, TimeUnit.SECONDS);
        return handler;
    }

    @Test
    void byDefaultTheEngineIsToldAfterEveryTurnBeforeAHandlerRuns() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(1, false))) {
            FirstRead handler = readThroughOnePoolThread(demux);
            List<Thread> aways = handler.awaysAtHandler.get();
            assertFalse(aways.isEmpty(), "the turn that found the completion ended before its handler ran");
            assertEquals(handler.handlerThread.get(), aways.get(aways.size() - 1),
                    "told by the leader whose turn it was");
        }
    }

    @Test
    void withPromptHandlersATurnLastsAcrossTheHandlersItsThreadRuns() throws Exception {
        ScriptedEngine engine;
        Thread poolThread;
        try (Demultiplexor demux = Demultiplexor.open(config(1, true))) {
            FirstRead handler = readThroughOnePoolThread(demux);
            engine = handler.engine;
            poolThread = handler.handlerThread.get();
            assertEquals(List.of(), handler.awaysAtHandler.get(), "the leader is still in its turn while it dispatches");
        }
        assertTrue(engine.leaderAways.contains(poolThread), "leaving its loop at close ends the pool thread's turn");
    }

    @Test
    void withPromptHandlersAPoolThreadThatWaitsAsAFollowerEndsItsTurn() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(config(2, true))) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            demux.start();
            assertTrue(engine.waitEntered.tryAcquire(60, TimeUnit.SECONDS), "hang guard: nobody led");
            for (int i = 0; i < 6000 && engine.leaderAways.isEmpty(); i++) {
                Thread.sleep(10); // the second pool thread goes to sleep as a follower
            }
            assertFalse(engine.leaderAways.isEmpty(), "a pool thread that follows ends its turn first");
        }
    }
}
