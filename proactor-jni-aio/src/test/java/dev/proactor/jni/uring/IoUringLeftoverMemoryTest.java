package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An engine closed while requests are still in its ring (its quiesce gave up waiting for them; made to give up at
 * once here): closing the ring only starts their cancellation, which the kernel finishes on its own time, so the
 * memory they point at (the user's direct buffer of a {@code RECV}, a direction's iovecs of a {@code READV}, the
 * provided-buffer ring a heap read's {@code RECV} picks a block from) must stay reachable, never freed by the garbage
 * collector or reused, after the engine and everything of it became unreachable. The reads wait on sockets whose
 * peers never send. No timing: the garbage collector is asked to run, and the memory must still be there. An engine
 * closed with nothing left in its ring keeps nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringLeftoverMemoryTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private ServerSocketChannel server;
    private final List<SocketChannel> peers = new ArrayList<>();

    @AfterEach
    void tearDown() throws IOException {
        for (SocketChannel peer : peers) {
            peer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void memoryOfRequestsLeftInTheRingOutlivesTheClosedEngine() throws Exception {
        Map<String, WeakReference<Object>> memory = closeWithReadsInTheRing();
        for (int i = 0; i < 5; i++) {
            System.gc(); // whatever is unreachable now is collected, and its native memory freed
        }
        for (Map.Entry<String, WeakReference<Object>> m : memory.entrySet()) {
            assertNotNull(m.getValue().get(), m.getKey() + " was collected while the kernel may still use it");
        }
        assertTrue(IoUringLeftovers.holds(memory.get("the RECV's direct buffer").get()), "kept by the leftovers");
    }

    @Test
    void anEngineClosedWithNothingInItsRingKeepsNothing() throws Exception {
        IoUringEngine engine = openEngine();
        try {
            IoUringChannel channel = connect(engine);
            ByteBuffer direct = ByteBuffer.allocateDirect(8);
            IoRequest read = new IoRequest(this).prepare(OpKind.READ, channel).buffer(direct);
            assertEquals(StartResult.PENDING, engine.start(read));
            peers.get(0).write(ByteBuffer.wrap(new byte[] {1}));
            WaitStrategy wait = engine.waitStrategy();
            long deadline = System.nanoTime() + GUARD_NANOS;
            IoRequest done = null;
            while (done == null) {
                assertTrue(System.nanoTime() - deadline < 0, "hang guard: the read never completed");
                wait.prepareToWait();
                wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5));
                wait.leaderAway();
                done = wait.nextCompleted();
            }
            engine.quiesceLimit(0);
            engine.quiesce();
            engine.close();
            assertFalse(IoUringLeftovers.holds(direct), "a completed request's buffer is not kept");
            assertFalse(engine.providedBuffers() != null && IoUringLeftovers.holds(engine.providedBuffers()),
                    "the provided-buffer ring is not kept when no request was left");
        } finally {
            engine.close();
        }
    }

    private IoUringEngine openEngine() throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        Thread testThread = Thread.currentThread();
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false"); // each read goes to the ring
        // Direct reads here are requests of their own: with multishotRecv=all they would arm a multishot receive,
        // which stays in the ring until its channel closes (IoUringMultishotRecvTest).
        String multishotBefore = System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, "heap");
        IoUringEngine engine;
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings(IoUringWaitStrategy.NAME, "leftover-test",
                    () -> Thread.currentThread() == testThread));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
            if (multishotBefore == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotBefore);
            }
        }
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return engine;
    }

    /**
     * Starts three reads on an engine, has the kernel take them in, closes the engine with them in the ring, and
     * returns weak references to the memory they point at; nothing of the engine is strongly reachable from here.
     */
    private Map<String, WeakReference<Object>> closeWithReadsInTheRing() throws IOException {
        IoUringEngine engine = openEngine();
        try {
            ByteBuffer direct = ByteBuffer.allocateDirect(64);
            IoRequest recv = new IoRequest(this).prepare(OpKind.READ, connect(engine)).buffer(direct);
            ByteBuffer[] scattered = {ByteBuffer.allocateDirect(8), ByteBuffer.allocateDirect(8)};
            IoUringChannel readvChannel = connect(engine);
            IoRequest readv = new IoRequest(this).prepare(OpKind.READ, readvChannel).buffers(scattered, 0, 2);
            IoRequest heap = new IoRequest(this).prepare(OpKind.READ, connect(engine))
                    .buffer(ByteBuffer.allocate(64));
            for (IoRequest r : List.of(recv, readv, heap)) {
                assertEquals(StartResult.PENDING, engine.start(r), "nothing to read: the read waits in the ring");
            }
            WaitStrategy wait = engine.waitStrategy();
            long deadline = System.nanoTime() + GUARD_NANOS;
            while (!engine.everythingSubmitted()) {
                assertTrue(System.nanoTime() - deadline < 0, "hang guard: the reads were never submitted");
                wait.prepareToWait();
                wait.waitFor(0); // the test thread is the engine's own: its enter submits
                wait.leaderAway();
            }
            Map<String, WeakReference<Object>> memory = new LinkedHashMap<>();
            memory.put("the RECV's direct buffer", new WeakReference<>(direct));
            memory.put("the READV's iovecs", new WeakReference<>(readvChannel.input.scratch.currentIovecs()));
            memory.put("the READV's second buffer", new WeakReference<>(scattered[1]));
            if (engine.providedBuffers() != null) {
                memory.put("the provided-buffer ring", new WeakReference<>(engine.providedBuffers()));
            }
            engine.quiesceLimit(0); // gives up at once: the reads are still in the ring
            engine.quiesce();
            return memory;
        } finally {
            engine.close();
        }
    }

    private IoUringChannel connect(IoUringEngine engine) throws IOException {
        SocketChannel client = SocketChannel.open(server.getLocalAddress()); // closed with the engine
        peers.add(server.accept());
        return (IoUringChannel) engine.register(client);
    }
}
