package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.AbstractStartOutsideLockTest;
import dev.proactor.jni.Epoll;
import dev.proactor.spi.Engine;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stream tries outside the channel's lock on the epoll engine, plus what its edge-triggered events and its own
 * descriptor add: readiness consumed by the leader during a try is not lost, and a close during a try leaves the
 * descriptor open until the try's system call has returned.
 */
class EpollStartOutsideLockTest extends AbstractStartOutsideLockTest {

    @Override
    protected Engine openEngine() throws IOException {
        assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        return new EpollEngine(EpollWaitStrategy.NAME);
    }

    @Override
    protected void beforeTryOutsideLock(Engine engine, Runnable hook) {
        ((EpollEngine) engine).starter().beforeTryOutsideLock = hook;
    }

    @Test
    void readinessThatComesDuringAFailedTryIsNotLost() throws Exception {
        startLeader();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<IoRequest> readDone = new CompletableFuture<>();
        ByteBuffer into = ByteBuffer.allocateDirect(16);
        CompletableFuture<StartResult> started = startHeldInItsTry("held-reader",
                request(OpKind.READ, into, readDone), inside, release);
        assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the read never started");
        // The bytes and their event arrive while the reader is held before its system call; the leader takes the
        // event (its edge is then consumed) before the reader goes on.
        peer.write(ByteBuffer.wrap("late".getBytes(StandardCharsets.US_ASCII)));
        EpollChannel held = (EpollChannel) channel;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!eventNotedDuringTry(held)) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the leader never took the event");
            Thread.onSpinWait();
        }
        release.countDown();
        if (started.get(GUARD_SECONDS, TimeUnit.SECONDS) == StartResult.COMPLETED) {
            readDone.complete(null);
        }
        readDone.get(GUARD_SECONDS, TimeUnit.SECONDS);
        assertEquals("late", StandardCharsets.US_ASCII.decode(into.flip()).toString());
    }

    /** Whether the leader took an input event of {@code held} while its read was being tried. */
    private static boolean eventNotedDuringTry(EpollChannel held) {
        synchronized (held) {
            return held.inputEventWhileTrying;
        }
    }

    @Test
    void aChannelClosedDuringATryKeepsItsDescriptorUntilTheTryEnds() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<StartResult> write = startHeldInItsTry("held-writer",
                request(OpKind.WRITE, ascii("pong"), new CompletableFuture<>()), inside, release);
        assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the write never started");
        channel.close(); // must not close the descriptor under the held system call
        SocketChannel other = SocketChannel.open(server.getLocalAddress()); // would take a freed number
        try (SocketChannel otherPeer = server.accept()) {
            release.countDown();
            assertEquals(StartResult.COMPLETED, write.get(GUARD_SECONDS, TimeUnit.SECONDS),
                    "the try ran on the still-open descriptor");
            otherPeer.configureBlocking(false);
            assertEquals(0, otherPeer.read(ByteBuffer.allocate(4)), "nothing went to another socket");
        } finally {
            other.close();
        }
    }

    @Test
    void anErrorThrownDuringATryOutsideTheLockLeavesTheDirectionFree() throws Exception {
        // An OutOfMemoryError, as a shared bounce block that cannot be allocated would throw, thrown by the hook
        // inside the try (the direction is marked busy with its try then).
        OutOfMemoryError injected = new OutOfMemoryError("injected in the try");
        beforeTryOutsideLock(engine, () -> {
            throw injected;
        });
        IoRequest failed = request(OpKind.READ, ByteBuffer.allocateDirect(16), new CompletableFuture<>());
        Throwable outcome;
        try {
            assertEquals(StartResult.COMPLETED, engine.start(failed), "a request that failed at start is completed");
            outcome = failed.error();
        } catch (OutOfMemoryError thrown) {
            outcome = thrown;
        }
        assertSame(injected, outcome, "the error is the request's outcome (recorded or thrown)");
        beforeTryOutsideLock(engine, null);

        peer.write(ByteBuffer.wrap("after".getBytes(StandardCharsets.US_ASCII)));
        ByteBuffer into = ByteBuffer.allocateDirect(16);
        CompletableFuture<IoRequest> readDone = new CompletableFuture<>();
        IoRequest next = request(OpKind.READ, into, readDone);
        StartResult started = engine.start(next);
        assertNull(next.error(), "the input direction is free: the next read runs");
        startLeader();
        if (started == StartResult.COMPLETED) {
            readDone.complete(next);
        }
        assertNull(readDone.get(GUARD_SECONDS, TimeUnit.SECONDS).error());
        assertEquals("after", StandardCharsets.US_ASCII.decode(into.flip()).toString());
    }
}
