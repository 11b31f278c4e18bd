package dev.proactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.testengine.ScriptedEngineProvider;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * A handler implements only the callbacks of the operations it starts; every other one has a default that treats
 * the completion as a programming error: logged at ERROR and the channel closed, so nothing is dropped silently.
 * Driven by the scripted engine; waits are hang guards only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsynchHandlerDefaultsTest {

    private static final long GUARD_SECONDS = 30;

    /** Implements nothing: compiles, and every callback's default throws, naming the handler and the callback. */
    private static final class Nothing implements AsynchHandler {
    }

    private static ScriptedChannel engineChannel(AsynchChannel ch) {
        return (ScriptedChannel) Internals.core(ch).engineChannel();
    }

    private static Demultiplexor open() throws Exception {
        return Demultiplexor.open(ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1).build())
                .start();
    }

    @Test
    void everyDefaultThrowsNamingTheHandlerAndTheCallback() {
        AsynchHandler h = new Nothing();
        List<Executable> calls = List.of(() -> h.onReadCompleted(null), () -> h.onWriteCompleted(null),
                () -> h.onAcceptCompleted(null), () -> h.onConnectCompleted(null), () -> h.onReceiveCompleted(null),
                () -> h.onSendCompleted(null), () -> h.onTransmitCompleted(null), () -> h.onTimerCompleted(null));
        List<String> names = List.of("onReadCompleted", "onWriteCompleted", "onAcceptCompleted",
                "onConnectCompleted", "onReceiveCompleted", "onSendCompleted", "onTransmitCompleted",
                "onTimerCompleted");
        for (int i = 0; i < calls.size(); i++) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, calls.get(i));
            assertEquals(Nothing.class.getName() + " does not implement " + names.get(i), e.getMessage());
        }
    }

    @Test
    void anAcceptorImplementsOnlyOnAcceptCompleted() throws Exception {
        CompletableFuture<AsynchChannel> adopted = new CompletableFuture<>();
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchHandler acceptor = new AsynchHandler() {
                @Override
                public void onAcceptCompleted(OpAccept op) throws Exception {
                    adopted.complete(op.adopt(new Nothing()));
                }
            };
            AsynchChannel server = AsynchChannel.openServer(demux, acceptor, new java.net.InetSocketAddress(0), 0);
            server.accept();
            assertTrue(engine.completeAccept(engine.lastServer));
            assertTrue(adopted.get(GUARD_SECONDS, TimeUnit.SECONDS).isOpen());
        }
    }

    @Test
    void aReadNobodyHandlesIsLoggedAndClosesTheChannel() throws Exception {
        CompletableFuture<Throwable> write = new CompletableFuture<>();
        AsynchHandler writesOnly = new AsynchHandler() {
            @Override
            public void onWriteCompleted(OpWrite op) {
                write.complete(op.getError());
            }
        };
        String log = unhandled(writesOnly, true, () -> write.get(GUARD_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, write.join(), "the pending write ends with the close");
        assertTrue(log.contains("failed in READ completion"), log);
        assertTrue(log.contains("does not implement onReadCompleted"), log);
    }

    @Test
    void aWriteNobodyHandlesIsLoggedAndClosesTheChannel() throws Exception {
        CompletableFuture<Throwable> read = new CompletableFuture<>();
        AsynchHandler readsOnly = new AsynchHandler() {
            @Override
            public void onReadCompleted(OpRead op) {
                read.complete(op.getError());
            }
        };
        String log = unhandled(readsOnly, false, () -> read.get(GUARD_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(AsynchronousCloseException.class, read.join(), "the pending read ends with the close");
        assertTrue(log.contains("failed in WRITE completion"), log);
        assertTrue(log.contains("does not implement onWriteCompleted"), log);
    }

    /**
     * Starts a read and a write on a channel of {@code handler}, completes the one on {@code inputSide} (which the
     * handler does not implement) and waits with {@code awaitOther} until the other one has completed.
     *
     * @return what was logged meanwhile (the test logger writes to {@code System.err})
     */
    private static String unhandled(AsynchHandler handler, boolean inputSide, Callable<?> awaitOther)
            throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, handler);
            ch.read(ByteBuffer.allocate(8));
            ch.write(ByteBuffer.allocate(8));
            assertTrue(engine.complete(engineChannel(ch), inputSide, 8));
            awaitOther.call();
            assertFalse(ch.isOpen(), "the channel of the unhandled completion is closed");
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
