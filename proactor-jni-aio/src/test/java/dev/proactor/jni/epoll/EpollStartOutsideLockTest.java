package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.Epoll;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
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
 * A stream read or write tried at start runs its system call outside the channel's lock: the leader handling an
 * event of the same channel meanwhile must not wait for the starting thread (on a busy core it would wait until
 * that thread is scheduled again, with every other completion behind it). The starting thread is held inside its
 * try by the engine's test hook; waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EpollStartOutsideLockTest {

    private static final long GUARD_SECONDS = 30;

    private EpollEngine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;
    private Thread leader;
    private volatile boolean stopping;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        engine = new EpollEngine(EpollWaitStrategy.NAME);
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
    private void startLeader() {
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

    private IoRequest request(OpKind kind, ByteBuffer buffer, CompletableFuture<IoRequest> done) {
        return new IoRequest(done).prepare(kind, channel).buffer(buffer);
    }

    /** Starts a write on its own thread, which the hook holds inside its try until {@code release} opens. */
    private CompletableFuture<StartResult> writeHeldInItsTry(CountDownLatch inside, CountDownLatch release) {
        engine.beforeTryOutsideLock = () -> {
            if (Thread.currentThread().getName().equals("held-writer")) {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        CompletableFuture<StartResult> started = new CompletableFuture<>();
        Thread writer = new Thread(() -> started.complete(engine.start(request(OpKind.WRITE,
                ByteBuffer.allocateDirect(4).put("pong".getBytes(StandardCharsets.US_ASCII)).flip(),
                new CompletableFuture<>()))), "held-writer");
        writer.start();
        return started;
    }

    @Test
    void theLeaderCompletesAReadWhileAWriteOfTheSameChannelIsInItsSystemCall() throws Exception {
        CompletableFuture<IoRequest> readDone = new CompletableFuture<>();
        ByteBuffer into = ByteBuffer.allocateDirect(16);
        assertEquals(StartResult.PENDING, engine.start(request(OpKind.READ, into, readDone)), "nothing to read yet");
        startLeader();

        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<StartResult> write = writeHeldInItsTry(inside, release);
        try {
            assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the write never started");
            peer.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)));
            IoRequest read = readDone.get(GUARD_SECONDS, TimeUnit.SECONDS); // the old engine hung here
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

    @Test
    void readinessThatComesDuringAFailedTryIsNotLost() throws Exception {
        startLeader();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        engine.beforeTryOutsideLock = () -> {
            if (Thread.currentThread().getName().equals("held-reader") && inside.getCount() > 0) {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        CompletableFuture<IoRequest> readDone = new CompletableFuture<>();
        ByteBuffer into = ByteBuffer.allocateDirect(16);
        CompletableFuture<StartResult> started = new CompletableFuture<>();
        Thread reader = new Thread(() -> started.complete(engine.start(request(OpKind.READ, into, readDone))),
                "held-reader");
        reader.start();
        assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the read never started");
        // The bytes and their event arrive while the reader is held before its system call; let the leader take
        // the event (its edge is then consumed) before the reader goes on.
        peer.write(ByteBuffer.wrap("late".getBytes(StandardCharsets.US_ASCII)));
        long polls = engine.polls();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (engine.polls() < polls + 2) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the leader stopped polling");
            Thread.onSpinWait();
        }
        release.countDown();
        if (started.get(GUARD_SECONDS, TimeUnit.SECONDS) == StartResult.COMPLETED) {
            readDone.complete(null);
        }
        readDone.get(GUARD_SECONDS, TimeUnit.SECONDS);
        assertEquals("late", StandardCharsets.US_ASCII.decode(into.flip()).toString());
    }

    @Test
    void aChannelClosedDuringATryKeepsItsDescriptorUntilTheTryEnds() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<StartResult> write = writeHeldInItsTry(inside, release);
        assertTrue(inside.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the write never started");
        channel.close(); // must not close the descriptor under the held system call
        SocketChannel other = SocketChannel.open(server.getLocalAddress()); // would take a freed number
        try (SocketChannel otherPeer = server.accept()) {
            release.countDown();
            StartResult result = write.get(GUARD_SECONDS, TimeUnit.SECONDS);
            assertEquals(StartResult.COMPLETED, result, "the try ran on the still-open descriptor");
            otherPeer.configureBlocking(false);
            assertEquals(0, otherPeer.read(ByteBuffer.allocate(4)), "nothing went to another socket");
        } finally {
            other.close();
        }
    }
}
