package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.PeerText;
import dev.proactor.jni.AllocationCounter;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stream reads of heap buffers through the io_uring engine's provided-buffer ring ({@link IoUringBufferRing}): the read
 * waits in the ring as one {@code RECV} and the kernel takes a block when bytes arrive; a read takes at most a block; a
 * receive that finds no block left still gets its bytes (through a system call of its own); a cancelled read takes no
 * block; a direct read never takes one; a block held for a later read (a multishot receive's,
 * {@code proactor.uring.multishotRecv}, whose mode the run's {@code -D} sets here) goes back at the channel's close.
 * Reads are not tried at start here ({@code tryFirst=false}), so each one goes to the ring. The engine is driven from
 * the test thread through the SPI (start, then polls of its wait strategy), so the ring's counters are read on the
 * thread that reaps.
 */
class IoUringProvidedBuffersTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private IoUringEngine engine;
    private ServerSocketChannel server;
    private final List<SocketChannel> peers = new ArrayList<>();
    private final List<SocketChannel> clients = new ArrayList<>();

    private IoUringEngine open(String providedBuffers) throws IOException {
        return open(providedBuffers, System.getProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY));
    }

    /**
     * @param multishotRecv {@code proactor.uring.multishotRecv} for this engine, or null for its default (the run's
     *                      {@code -D}, as the other tests here take it: they hold whichever receive the reads use)
     */
    private IoUringEngine open(String providedBuffers, String multishotRecv) throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        String multishotBefore = System.getProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false");
        System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, providedBuffers);
        if (multishotRecv != null) {
            System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotRecv);
        }
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "provided-buffers-test"));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
            System.clearProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY);
            if (multishotBefore == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotBefore);
            }
        }
        assumeTrue(engine.providedBuffers() != null, "the kernel has no provided-buffer rings");
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return engine;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
            engine.close(); // closes the registered channels too
        }
        for (SocketChannel peer : peers) {
            peer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * A connection whose near end is registered with the engine; its peer is added to {@link #peers}, the near end
     * to {@link #clients}.
     */
    private EngineChannel connect() throws IOException {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        clients.add(client);
        peers.add(server.accept());
        return engine.register(client);
    }

    /** Waits (hang guard only) until the near end of connection {@code i} has bytes to read. */
    private void awaitReadable(int i) throws Exception {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (clients.get(i).socket().getInputStream().available() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the peer's bytes did not arrive within the hang guard");
            Thread.sleep(1);
        }
    }

    private IoRequest read(EngineChannel channel, ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffers(new ByteBuffer[] {into}, 0, 1);
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    /** Polls until every one of {@code requests}, all pending, completed. */
    private void await(IoRequest... requests) throws IOException {
        List<IoRequest> waiting = new ArrayList<>(Arrays.asList(requests));
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
                for (IoRequest done = wait.nextCompleted(); done != null; done = wait.nextCompleted()) {
                    assertTrue(waiting.remove(done), "a pending request completes, once");
                }
            }
        }
        assertTrue(waiting.isEmpty(), "the requests did not complete within the hang guard");
    }

    /**
     * Starts a read into {@code into}, which goes to the ring, then sends {@code text} from the peer of connection
     * {@code i} and waits for the read; returns what it read.
     */
    private String readFromRing(int i, EngineChannel channel, ByteBuffer into, String text) throws Exception {
        IoRequest request = read(channel, into);
        assertNotEquals(StartResult.COMPLETED, engine.start(request), "the read waits in the ring");
        PeerText.send(peers.get(i), text);
        await(request);
        assertNull(request.error());
        return PeerText.text(into);
    }

    @Test
    void aHeapReadWaitingInTheRingReceivesThroughAProvidedBlock() throws Exception {
        open("4");
        assertEquals("hello", readFromRing(0, connect(), ByteBuffer.allocate(64), "hello"));
        assertEquals(1, engine.providedBuffers().blocksUsed(), "the kernel took a block, the reaper gave it back");
        assertEquals(0, engine.providedBuffers().shortages());
    }

    @Test
    void aHeapReadTakesAtMostOneBlockAndTheRestFollowsInOrder() throws Exception {
        open("2");
        EngineChannel channel = connect();
        int block = IoUringFeatures.BLOCK_SIZE;
        byte[] sent = pattern(block * 2 + 1000);
        peers.get(0).write(ByteBuffer.wrap(sent));
        ByteBuffer received = ByteBuffer.allocate(sent.length);
        int reads = 0;
        while (received.hasRemaining()) {
            ByteBuffer heap = ByteBuffer.allocate(64 * 1024);
            IoRequest request = read(channel, heap);
            if (engine.start(request) != StartResult.COMPLETED) {
                await(request);
            }
            assertNull(request.error());
            assertTrue(request.bytes() > 0 && request.bytes() <= block, "one read, one block at most: "
                    + request.bytes());
            received.put(heap.flip());
            reads++;
        }
        assertTrue(reads >= 3, "the bytes took a read per block");
        assertTrue(Arrays.equals(sent, received.array()), "every byte, in order");
        assertEquals(reads, engine.providedBuffers().blocksUsed(), "two blocks served every read, given back");
    }

    @Test
    void aReceiveThatFindsNoBlockLeftStillGetsItsBytes() throws Exception {
        open("1");
        EngineChannel first = connect();
        EngineChannel second = connect();
        PeerText.send(peers.get(0), "first");
        PeerText.send(peers.get(1), "second");
        awaitReadable(0);
        awaitReadable(1);
        ByteBuffer firstHeap = ByteBuffer.allocate(64);
        ByteBuffer secondHeap = ByteBuffer.allocate(64);
        IoRequest firstRead = read(first, firstHeap);
        IoRequest secondRead = read(second, secondHeap);
        // Both receives find their bytes when the kernel takes them in, and only a reap, on this thread, gives the
        // one block back: so the reap waits until the kernel has taken both in (the submitter thread may submit the
        // second after this thread's first reap otherwise).
        assertNotEquals(StartResult.COMPLETED, engine.start(firstRead));
        assertNotEquals(StartResult.COMPLETED, engine.start(secondRead));
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!engine.everythingSubmitted()) {
            assertTrue(System.nanoTime() - deadline < 0, "the reads were not submitted within the hang guard");
            Thread.sleep(1);
        }
        await(firstRead, secondRead);
        assertNull(firstRead.error());
        assertNull(secondRead.error());
        assertEquals("first", PeerText.text(firstHeap));
        assertEquals("second", PeerText.text(secondHeap));
        assertEquals(1, engine.providedBuffers().shortages(), "the second receive found no block left");
        assertEquals(1, engine.providedBuffers().blocksUsed());

        assertEquals("again", readFromRing(1, second, ByteBuffer.allocate(64), "again")); // the block is back
        assertEquals(2, engine.providedBuffers().blocksUsed());
    }

    @Test
    void aCancelledHeapReadTakesNoBlock() throws Exception {
        open("1");
        EngineChannel channel = connect();
        IoRequest request = read(channel, ByteBuffer.allocate(64));
        assertNotEquals(StartResult.COMPLETED, engine.start(request));
        CancellationException reason = new CancellationException("test");
        if (!engine.cancel(request, reason)) {
            await(request); // a RECV in the ring ends with its own CQE; a read waiting for a multishot receive at once
        }
        assertSame(reason, request.error(), "cancelled while waiting for bytes");
        assertEquals(0, engine.providedBuffers().blocksUsed());

        assertEquals("after", readFromRing(0, channel, ByteBuffer.allocate(64), "after"));
        assertEquals(1, engine.providedBuffers().blocksUsed(), "the one block was still there");
    }

    @Test
    void directReadsNeverTakeABlock() throws Exception {
        open("1", "heap"); // with multishotRecv=all a direct read is copied out of a block
        assertEquals("direct", readFromRing(0, connect(), ByteBuffer.allocateDirect(64), "direct"));
        assertEquals(0, engine.providedBuffers().blocksUsed(), "the kernel received into the caller's buffer");
        assertEquals(0, engine.providedBuffers().shortages(), "no receive asked for a block");
    }

    @Test
    void blocksHeldForALaterReadGoBackToTheRingWhenTheChannelCloses() throws Exception {
        open("1");
        EngineChannel holder = connect();
        assertEquals("first", readFromRing(0, holder, ByteBuffer.allocate(64), "first"));
        PeerText.send(peers.get(0), "unread"); // no read pending: a multishot receive holds it in the one block
        awaitUnreadBytes(0, ((IoUringChannel) holder).input.multishot != null);
        holder.close();
        EngineChannel next = connect();
        assertEquals("next", readFromRing(1, next, ByteBuffer.allocate(64), "next"));
        assertEquals(0, engine.providedBuffers().shortages(), "the ring's one block was back for the next channel");
    }

    /**
     * Waits (hang guard only) until the peer's bytes to connection {@code i} are held by its multishot receive (polling
     * the engine, which reaps and holds its CQE), or, without one, are in the near end's socket.
     */
    private void awaitUnreadBytes(int i, boolean multishot) throws Exception {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (multishot ? engine.providedBuffers().held() == 0
                : clients.get(i).socket().getInputStream().available() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the peer's bytes did not arrive within the hang guard");
            WaitStrategy wait = engine.waitStrategy();
            wait.prepareToWait();
            assertEquals(0, wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)), "no request completes");
        }
    }

    @Test
    void heapReadsThroughTheRingAllocateNothingOnceWarm() throws Exception {
        AllocationCounter.assumeAvailable();
        open("4");
        EngineChannel channel = connect();
        SocketChannel peer = peers.get(0);
        ByteBuffer out = ByteBuffer.allocateDirect(16);
        ByteBuffer[] into = {ByteBuffer.allocate(64)};
        IoRequest request = new IoRequest(this);
        WaitStrategy wait = engine.waitStrategy();
        int warmUp = 20_000;
        int measured = 20_000;
        long before = 0;
        for (int i = 0; i < warmUp + measured; i++) {
            if (i == warmUp) {
                before = AllocationCounter.allocatedBytes();
            }
            out.clear();
            peer.write(out);
            into[0].clear();
            assertNotEquals(StartResult.COMPLETED, engine.start(request.prepare(OpKind.READ, channel)
                    .buffers(into, 0, 1)), "the read waits in the ring");
            long deadline = System.nanoTime() + GUARD_NANOS; // no allocation in this wait: await() makes a list
            do {
                assertTrue(System.nanoTime() - deadline < 0, "the read did not complete within the hang guard");
                wait.prepareToWait();
            } while (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) == 0);
            assertSame(request, wait.nextCompleted());
        }
        long perRead = (AllocationCounter.allocatedBytes() - before) / measured;
        assertNull(request.error());
        assertTrue(request.bytes() > 0);
        assertEquals(warmUp + measured, engine.providedBuffers().blocksUsed(), "every read through a block");
        assertEquals(0, perRead, "bytes allocated per heap read");
    }
}
