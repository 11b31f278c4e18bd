package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the io_uring engine tries a stream read or write on the socket at start ({@code proactor.uring.tryFirst}):
 * with {@code auto} (the default) a thread that may not submit tries, and so does a thread that may submit while a
 * leader blocks in {@code io_uring_enter}; a thread that may submit with no leader blocked leaves the request to
 * the next leader's enter, even when the socket could serve it at once, and the request still completes with
 * every byte. {@code true} and {@code false} try always and never. The engine is driven through the SPI from the
 * test thread, which counts as one of the engine's own threads only where a test says so.
 */
class IoUringTryAtStartTest {

    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Set<Thread> own = ConcurrentHashMap.newKeySet();
    private IoUringEngine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    @AfterEach
    void tearDown() throws Exception {
        System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        if (engine != null) {
            engine.close();
        }
        if (server != null) {
            peer.close();
            server.close();
        }
    }

    private void open(String tryFirst) throws IOException {
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, tryFirst);
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        // Direct reads here are requests of their own: with multishotRecv=all they would wait for an armed
        // multishot receive, which no read tries around (IoUringMultishotRecvTest).
        String multishotBefore = System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, "heap");
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings(IoUringWaitStrategy.NAME, "try-at-start-test",
                    () -> own.contains(Thread.currentThread())));
        } finally {
            restore(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotBefore);
        }
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
        channel = engine.register(client);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private IoRequest read(ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffers(new ByteBuffer[] {into}, 0, 1);
    }

    private IoRequest write(String text) {
        ByteBuffer from = ByteBuffer.allocateDirect(text.length());
        from.put(text.getBytes(StandardCharsets.US_ASCII)).flip();
        return new IoRequest(this).prepare(OpKind.WRITE, channel).buffers(new ByteBuffer[] {from}, 0, 1);
    }

    @Test
    void autoTriesOnAThreadThatMayNotSubmit() throws Exception {
        open("auto");
        readAndWriteCompleteAtStart("ready");
    }

    @Test
    void autoLeavesAnOwnThreadsRequestsToTheNextEnterAfterATurnOfSeveralCompletions() throws Exception {
        open("auto");
        own.add(Thread.currentThread());
        turnOfTwoCompletions();
        PeerText.send(peer, "ready");
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        IoRequest r = read(buffer);
        assertEquals(StartResult.PENDING, engine.start(r), "not tried: the next leader's enter takes it");
        IoRequest w = write("reply");
        assertEquals(StartResult.PENDING, engine.start(w), "not tried either");
        leadUntilDone(r, w);
        assertEquals("ready", PeerText.text(buffer));
        assertEquals(5, w.bytes());
        assertEquals("reply", PeerText.receive(peer, 5));
    }

    @Test
    void autoTriesOnAnOwnThreadAfterATurnOfOneCompletion() throws Exception {
        open("auto");
        own.add(Thread.currentThread());
        IoRequest first = read(ByteBuffer.allocateDirect(3)); // filled: the socket is not known drained
        engine.start(first);
        PeerText.send(peer, "one");
        leadUntilDone(first); // one completion per turn: nothing to share an enter with
        readAndWriteCompleteAtStart("two");
    }

    /** The peer sends {@code sent}: a read and then a write started now are tried and complete at start. */
    private void readAndWriteCompleteAtStart(String sent) throws IOException {
        PeerText.send(peer, sent);
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(buffer)), "tried: bytes already there");
        assertEquals(sent, PeerText.text(buffer));
        IoRequest w = write("reply");
        assertEquals(StartResult.COMPLETED, engine.start(w), "tried: room in the socket");
        assertEquals(5, w.bytes());
        assertEquals("reply", PeerText.receive(peer, 5));
    }

    /**
     * Leads turns until one completes two requests: a read each on two other connections whose peers sent before
     * the turn. Own thread only.
     */
    private void turnOfTwoCompletions() throws Exception {
        SocketChannel a = SocketChannel.open(server.getLocalAddress()); // closed with the engine
        try (SocketChannel peerA = server.accept()) {
            SocketChannel b = SocketChannel.open(server.getLocalAddress());
            SocketChannel peerB = server.accept();
            EngineChannel channelA = engine.register(a);
            EngineChannel channelB = engine.register(b);
            long deadline = System.nanoTime() + GUARD_NANOS;
            int completions = 0;
            while (completions < 2) {
                assertTrue(System.nanoTime() - deadline < 0, "no turn completed two reads");
                IoRequest readA = new IoRequest(this).prepare(OpKind.READ, channelA)
                        .buffers(new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, 0, 1);
                IoRequest readB = new IoRequest(this).prepare(OpKind.READ, channelB)
                        .buffers(new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, 0, 1);
                assertEquals(StartResult.PENDING, engine.start(readA));
                assertEquals(StartResult.PENDING, engine.start(readB));
                WaitStrategy wait = engine.waitStrategy();
                wait.prepareToWait();
                wait.waitFor(0); // submits both reads
                wait.leaderAway();
                drain(wait);
                peerA.write(ByteBuffer.wrap(new byte[] {1}));
                peerB.write(ByteBuffer.wrap(new byte[] {2}));
                completions = 0;
                int left = 2;
                while (left > 0) {
                    wait.prepareToWait();
                    completions = wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5));
                    wait.leaderAway();
                    left -= drain(wait);
                }
            }
            peerB.close();
        }
    }

    private static int drain(WaitStrategy wait) {
        int n = 0;
        for (IoRequest done = wait.nextCompleted(); done != null; done = wait.nextCompleted()) {
            assertNull(done.error());
            n++;
        }
        return n;
    }

    @Test
    void autoTriesOnAnOwnThreadWhileALeaderBlocksInItsEnter() throws Exception {
        open("auto");
        own.add(Thread.currentThread());
        Thread leader = new Thread(() -> {
            try {
                engine.waitStrategy().prepareToWait();
                engine.waitStrategy().waitFor(GUARD_NANOS); // ended by the interrupt below
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "blocked-leader");
        own.add(leader);
        leader.start();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!engine.leaderWaiting()) {
            assertTrue(System.nanoTime() - deadline < 0, "the leader did not block");
            Thread.onSpinWait();
        }
        PeerText.send(peer, "ready");
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(buffer)),
                "tried: the ring would cost a system call and the blocked leader's wake-up");
        assertEquals("ready", PeerText.text(buffer));
        engine.waitStrategy().interruptStrategy().interrupt();
        leader.join(TimeUnit.NANOSECONDS.toMillis(GUARD_NANOS));
        assertTrue(!leader.isAlive(), "the interrupted leader returned");
    }

    @Test
    void trueTriesEvenOnAnOwnThreadAndFalseNeverTries() throws Exception {
        open("true");
        own.add(Thread.currentThread());
        PeerText.send(peer, "one");
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(buffer)));
        assertEquals("one", PeerText.text(buffer));
        tearDown();
        engine = null;
        server = null;
        own.clear();

        open("false");
        PeerText.send(peer, "two");
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest r = read(second);
        assertEquals(StartResult.PENDING, engine.start(r), "every read is a ring request");
        own.add(Thread.currentThread()); // leads as an own thread: its enter submits the request
        leadUntilDone(r);
        assertEquals("two", PeerText.text(second));
    }

    /**
     * Leads (the test thread is one of the engine's own here) until every one of {@code requests}, all pending,
     * completed without an error, in any order.
     */
    private void leadUntilDone(IoRequest... requests) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        Set<IoRequest> left = ConcurrentHashMap.newKeySet();
        left.addAll(List.of(requests));
        while (!left.isEmpty() && System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5));
            wait.leaderAway();
            for (IoRequest done = wait.nextCompleted(); done != null; done = wait.nextCompleted()) {
                assertTrue(left.remove(done), "a pending request completes once");
                assertNull(done.error());
            }
        }
        assertTrue(left.isEmpty(), "the requests completed within the hang guard");
    }
}
