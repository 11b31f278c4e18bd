package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stream read or write tried at start makes its system call outside the channel's lock: the leader handling
 * readiness of the same channel meanwhile must not wait for the starting thread (on a busy core it would wait until
 * that thread is scheduled again, with every other completion behind it). The starting thread is held inside its
 * try by the engine's test hook; waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractStartOutsideLockTest {

    /** Hang guard only. */
    protected static final long GUARD_SECONDS = 30;

    protected Engine engine;
    protected ServerSocketChannel server;
    protected SocketChannel peer;
    protected EngineChannel channel;
    private Thread leader;
    private volatile boolean stopping;

    /**
     * The engine under test; skips the test (an assumption) where it is unavailable.
     *
     * @throws IOException if it cannot be made
     */
    protected abstract Engine openEngine() throws IOException;

    /** Installs {@code hook} to run in the starting thread right before each try made outside the lock. */
    protected abstract void beforeTryOutsideLock(Engine engine, Runnable hook);

    @BeforeEach
    void setUp() throws Exception {
        engine = openEngine();
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
        channel = engine.register(client);
    }

    @AfterEach
    void tearDown() throws Exception {
        stopping = true;
        if (leader != null) {
            engine.waitStrategy().interruptStrategy().interrupt();
            leader.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        }
        if (engine != null) {
            engine.close();
            peer.close();
            server.close();
        }
    }

    /** Leads on its own thread: polls and completes each request's future (its owner). */
    @SuppressWarnings("unchecked")
    protected void startLeader() {
        leader = new Thread(() -> {
            WaitStrategy wait = engine.waitStrategy();
            try {
                while (!stopping) {
                    wait.prepareToWait();
                    wait.waitFor(TimeUnit.MILLISECONDS.toNanos(20));
                    for (IoRequest r = wait.nextCompleted(); r != null; r = wait.nextCompleted()) {
                        ((CompletableFuture<IoRequest>) r.owner()).complete(r);
                    }
                }
            } catch (Exception e) {
                e.printStackTrace();
            }
        }, "outside-lock-test-leader");
        leader.start();
    }

    protected IoRequest request(OpKind kind, ByteBuffer buffer, CompletableFuture<IoRequest> done) {
        return new IoRequest(done).prepare(kind, channel).buffer(buffer);
    }

    /** Runs {@code start} on a thread named {@code name}, which the hook holds in its first try until released. */
    protected CompletableFuture<StartResult> startHeldInItsTry(String name, IoRequest request, CountDownLatch inside,
                                                             CountDownLatch release) {
        beforeTryOutsideLock(engine, () -> {
            if (Thread.currentThread().getName().equals(name) && inside.getCount() > 0) {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        CompletableFuture<StartResult> started = new CompletableFuture<>();
        new Thread(() -> started.complete(engine.start(request)), name).start();
        return started;
    }

    protected static ByteBuffer ascii(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    @Test
    void theLeaderCompletesAReadWhileAWriteOfTheSameChannelIsInItsSystemCall() throws Exception {
        CompletableFuture<IoRequest> readDone = new CompletableFuture<>();
        ByteBuffer into = ByteBuffer.allocateDirect(16);
        assertNotEquals(StartResult.COMPLETED, engine.start(request(OpKind.READ, into, readDone)),
                "nothing to read yet");
        startLeader();

        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<StartResult> write = startHeldInItsTry("held-writer",
                request(OpKind.WRITE, ascii("pong"), new CompletableFuture<>()), inside, release);
        try {
            assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the write never started");
            peer.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)));
            IoRequest read = readDone.get(GUARD_SECONDS, TimeUnit.SECONDS); // locked tries made the leader hang here
            assertNull(read.error());
            assertEquals(4, read.bytes());
        } finally {
            release.countDown();
        }
        assertEquals(StartResult.COMPLETED, write.get(GUARD_SECONDS, TimeUnit.SECONDS));
        ByteBuffer got = ByteBuffer.allocate(4);
        while (got.hasRemaining()) {
            peer.read(got);
        }
        assertEquals("pong", new String(got.array(), StandardCharsets.US_ASCII));
    }
}
