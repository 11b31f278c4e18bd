package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.PeerText;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@link Error} (here an {@link OutOfMemoryError}, as a direct buffer or a scratch block that cannot be allocated
 * would throw) thrown while a request's SQE is being written, after its direction took the request: at start, and in
 * the leader writing the next step. Whichever way the engine reports it (the request completes with it, or it is
 * thrown with the engine's state put back), the direction must be free again: the channel's next operation of that
 * direction runs. The error is injected through the starter's test hook; the test thread is the engine's own thread
 * and leads it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringThrownErrorTest {

    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private IoUringEngine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    @BeforeEach
    void setUp() throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        Thread testThread = Thread.currentThread();
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false"); // every request writes its SQE at start
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings(IoUringWaitStrategy.NAME, "thrown-error-test",
                    () -> Thread.currentThread() == testThread));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        }
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
        channel = engine.register(client);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
            engine.starter().beforeSqe = null;
            engine.close();
        }
        if (server != null) {
            peer.close();
            server.close();
        }
    }

    @Test
    void anErrorThrownAtStartLeavesTheDirectionFreeForTheNextRead() throws Exception {
        OutOfMemoryError injected = new OutOfMemoryError("injected at start");
        engine.starter().beforeSqe = () -> {
            throw injected;
        };
        IoRequest failed = new IoRequest(this).prepare(OpKind.READ, channel).buffer(ByteBuffer.allocateDirect(16));
        Throwable outcome;
        try {
            assertEquals(StartResult.COMPLETED, engine.start(failed), "a request that failed at start is completed");
            outcome = failed.error();
        } catch (OutOfMemoryError thrown) {
            outcome = thrown;
        }
        assertSame(injected, outcome, "the error is the request's outcome (recorded or thrown)");
        engine.starter().beforeSqe = null;

        ByteBuffer into = ByteBuffer.allocateDirect(16);
        IoRequest next = new IoRequest(this).prepare(OpKind.READ, channel).buffer(into);
        StartResult started = engine.start(next);
        assertNull(next.error(), "the input direction is free: the next read runs");
        assertEquals(StartResult.PENDING, started);
        PeerText.send(peer, "after");
        leadUntilDone(next);
        assertNull(next.error());
        assertEquals("after", PeerText.text(into));
    }

    @Test
    void anErrorThrownWhileTheLeaderWritesTheNextStepLeavesTheDirectionFreeForTheNextWrite() throws Exception {
        // A heap write goes out one 64 KiB block per step once the ring says the socket has room: the first step is
        // written at start, the next one by the leader, where the error is thrown.
        ByteBuffer heap = ByteBuffer.allocate(256 * 1024);
        IoRequest failed = new IoRequest(this).prepare(OpKind.WRITE, channel).buffer(heap);
        assertEquals(StartResult.PENDING, engine.start(failed));
        OutOfMemoryError injected = new OutOfMemoryError("injected in the leader");
        engine.starter().beforeSqe = () -> {
            throw injected;
        };
        Throwable outcome;
        try {
            leadUntilDone(failed);
            outcome = failed.error();
        } catch (OutOfMemoryError thrown) {
            outcome = thrown;
        }
        assertSame(injected, outcome, "the error is the request's outcome (recorded or thrown)");
        assertTrue(heap.position() > 0 && heap.hasRemaining(), "it was thrown between two steps");
        engine.starter().beforeSqe = null;

        ByteBuffer text = ByteBuffer.allocateDirect(5).put("after".getBytes(StandardCharsets.US_ASCII)).flip();
        IoRequest next = new IoRequest(this).prepare(OpKind.WRITE, channel).buffer(text);
        StartResult started = engine.start(next);
        assertNull(next.error(), "the output direction is free: the next write runs");
        if (started == StartResult.PENDING) {
            leadUntilDone(next);
        }
        assertNull(next.error());
        assertEquals(5, next.bytes());
    }

    /** Leads (the test thread is the engine's own) until {@code request}, which is pending, completed. */
    private void leadUntilDone(IoRequest request) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            try {
                wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5));
            } finally {
                wait.leaderAway();
            }
            for (IoRequest done = wait.nextCompleted(); done != null; done = wait.nextCompleted()) {
                assertSame(request, done, "the only pending request completes");
                return;
            }
        }
        throw new AssertionError("the request did not complete within the hang guard: " + request.kind());
    }
}
