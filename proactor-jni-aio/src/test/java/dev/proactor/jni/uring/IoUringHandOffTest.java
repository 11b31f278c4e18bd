package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests started by threads that may not submit (see {@link IoUringEngine}) while one thread of the engine's own
 * leads: the blocked leader is rung and submits them itself, and however starts and leader turns interleave, every
 * request is submitted. Waits are hang guards only; nothing asserts on timing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringHandOffTest {

    private static final long GUARD_SECONDS = 30;

    private IoUringEngine engine;
    private Thread leader;
    private volatile boolean stopping;
    private final List<SocketChannel> peers = new ArrayList<>();
    private ServerSocketChannel server;

    @BeforeEach
    void setUp() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        leader = new Thread(this::lead, "hand-off-test-leader");
        engine = (IoUringEngine) provider.create(
                new EngineSettings("io_uring", "hand-off-test", () -> Thread.currentThread() == leader));
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        leader.start();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine == null) {
            return;
        }
        stopping = true;
        engine.waitStrategy().interruptStrategy().interrupt();
        leader.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        engine.close();
        for (SocketChannel peer : peers) {
            peer.close();
        }
        server.close();
    }

    /** The own leader: waits without a time limit and completes each request's future (its owner). */
    @SuppressWarnings("unchecked")
    private void lead() {
        WaitStrategy wait = engine.waitStrategy();
        try {
            while (!stopping) {
                wait.prepareToWait();
                wait.waitFor(-1);
                for (IoRequest r = wait.nextCompleted(); r != null; r = wait.nextCompleted()) {
                    ((CompletableFuture<IoRequest>) r.owner()).complete(r);
                }
            }
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    /** A connected socket registered with the engine; its peer is kept for the test to write to. */
    private EngineChannel connect() throws Exception {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peers.add(server.accept());
        return engine.register(client);
    }

    /** Starts a read from the calling thread and returns its completion (at start or through the leader). */
    private static CompletableFuture<IoRequest> startRead(IoUringEngine engine, EngineChannel channel,
                                                          ByteBuffer into) {
        CompletableFuture<IoRequest> done = new CompletableFuture<>();
        IoRequest read = new IoRequest(done).prepare(OpKind.READ, channel).buffer(into);
        if (engine.start(read) == StartResult.COMPLETED) {
            done.complete(read);
        }
        return done;
    }

    private static IoRequest await(CompletableFuture<IoRequest> done)
            throws InterruptedException, ExecutionException {
        try {
            return done.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("a request was never submitted or never completed", e);
        }
    }

    @Test
    void aLeaderBlockedInItsWaitIsRungAndSubmitsTheRequestItself() throws Exception {
        EngineChannel channel = connect();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!engine.leaderWaiting()) {
            if (System.nanoTime() - deadline > 0) {
                fail("the leader never blocked");
            }
            Thread.onSpinWait();
        }
        long handedToSubmitter = engine.submitterWakeups();

        ByteBuffer into = ByteBuffer.allocateDirect(16);
        CompletableFuture<IoRequest> done = startRead(engine, channel, into); // this thread may not submit
        peers.get(0).write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        IoRequest read = await(done);

        assertNull(read.error());
        assertEquals(3, read.bytes());
        assertEquals(handedToSubmitter, engine.submitterWakeups(),
                "the blocked own leader submitted it, not the submitter thread");
    }

    /**
     * Offloaded handler work outstanding (two tasks, as when the leader handed two completions to an executor):
     * the leader's next wait is bounded, and requests that threads which may not submit start meanwhile do not ring
     * the doorbell each. The wait's bound submits them even though the work never ends here.
     */
    @Test
    void handOffsDuringOffloadedWorkSkipTheDoorbellAndTheBoundedWaitSubmitsThem() throws Exception {
        int reads = 5;
        List<EngineChannel> channels = connect(reads);
        beginTwoOffloadsAndAwaitTheBoundedWait();
        try {
            long rings = engine.doorbellRings();
            List<CompletableFuture<IoRequest>> done = startReads(channels);
            assertEquals(rings, engine.doorbellRings(), "no hand-off rang while other offloaded work was outstanding");
            for (int i = 0; i < reads; i++) {
                peers.get(i).write(ByteBuffer.wrap(new byte[] {(byte) i}));
            }
            for (CompletableFuture<IoRequest> d : done) {
                IoRequest read = await(d);
                assertNull(read.error());
                assertEquals(1, read.bytes());
            }
            assertEquals(rings, engine.doorbellRings(), "the bounded wait submitted them, not a doorbell");
        } finally {
            engine.offloadEnded();
            engine.offloadEnded();
        }
    }

    /**
     * The last offloaded work to end rings the doorbell, once, for the requests hand-offs left without a ring (or
     * finds them submitted by the wait's bound already): however they interleave, every request completes.
     */
    @Test
    void theLastOffloadToEndRingsAtMostOnceForWhatWasHandedOffWithoutARing() throws Exception {
        int reads = 5;
        List<EngineChannel> channels = connect(reads);
        beginTwoOffloadsAndAwaitTheBoundedWait();
        long rings = engine.doorbellRings();
        List<CompletableFuture<IoRequest>> done = startReads(channels);
        engine.offloadEnded();
        assertEquals(rings, engine.doorbellRings(), "one offload is still outstanding");
        engine.offloadEnded();
        assertTrue(engine.doorbellRings() - rings <= 1, "one ring for the whole batch at most");
        for (int i = 0; i < reads; i++) {
            peers.get(i).write(ByteBuffer.wrap(new byte[] {(byte) i}));
        }
        for (CompletableFuture<IoRequest> d : done) {
            assertEquals(1, await(d).bytes());
        }
    }

    /** {@code n} connected sockets registered with the engine. */
    private List<EngineChannel> connect(int n) throws Exception {
        List<EngineChannel> channels = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            channels.add(connect());
        }
        return channels;
    }

    /** Starts a read on each channel from the calling thread (one that may not submit). */
    private List<CompletableFuture<IoRequest>> startReads(List<EngineChannel> channels) {
        List<CompletableFuture<IoRequest>> done = new ArrayList<>();
        for (EngineChannel channel : channels) {
            done.add(startRead(engine, channel, ByteBuffer.allocateDirect(16)));
        }
        return done;
    }

    /**
     * Announces two offloaded tasks, wakes the leader so that it waits again, and returns once that wait is the
     * bounded one of offloaded work.
     */
    private void beginTwoOffloadsAndAwaitTheBoundedWait() {
        engine.offloadBegun();
        engine.offloadBegun();
        engine.waitStrategy().interruptStrategy().interrupt();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!engine.leaderWaitsBounded()) {
            if (System.nanoTime() - deadline > 0) {
                fail("the leader never waited with a bound");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void threadsThatMayNotSubmitStartingAtOnceLoseNoRequest() throws Exception {
        int threads = 8;
        int rounds = 300;
        List<EngineChannel> channels = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            channels.add(connect());
        }
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            EngineChannel channel = channels.get(t);
            SocketChannel peer = peers.get(t);
            workers.add(CompletableFuture.runAsync(() -> {
                ByteBuffer into = ByteBuffer.allocateDirect(16);
                try {
                    for (int round = 0; round < rounds; round++) {
                        into.clear();
                        CompletableFuture<IoRequest> done = startRead(engine, channel, into);
                        peer.write(ByteBuffer.wrap(new byte[] {(byte) round}));
                        IoRequest read = await(done);
                        assertNull(read.error());
                        assertEquals(1, read.bytes());
                        assertEquals((byte) round, into.get(0));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, runnable -> new Thread(runnable).start()));
        }
        for (CompletableFuture<Void> worker : workers) {
            worker.get(GUARD_SECONDS * 2, TimeUnit.SECONDS);
        }
        assertTrue(leader.isAlive(), "the leader kept leading");
    }
}
