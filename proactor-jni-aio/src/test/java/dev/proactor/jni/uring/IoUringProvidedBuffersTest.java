package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.PeerText;
import dev.proactor.jni.AllocationCounter;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stream reads of heap buffers through the io_uring engine's provided-buffer ring ({@link IoUringBufferRing}): the
 * read waits in the ring as one {@code RECV} and the kernel takes a block when bytes arrive; without receive bundles
 * a read takes at most a block; a receive that finds no block left still gets its bytes (through a system call of
 * its own); a cancelled read takes no block; a direct read never takes one; a block held for a later read (a
 * multishot receive's, {@code proactor.uring.multishotRecv}, whose mode the run's {@code -D} sets here) goes back at
 * the channel's close. Reads are not tried at start here ({@code tryFirst=false}), so each one goes to the ring
 * ({@link ProvidedRingTestBase}).
 */
class IoUringProvidedBuffersTest extends ProvidedRingTestBase {

    @Test
    void aHeapReadWaitingInTheRingReceivesThroughAProvidedBlock() throws Exception {
        open("4");
        assertEquals("hello", readFromRing(0, connect(), ByteBuffer.allocate(64), "hello"));
        assertEquals(1, engine.providedBuffers().blocksUsed(), "the kernel took a block, the reaper gave it back");
        assertEquals(0, engine.providedBuffers().shortages());
    }

    @Test
    void aHeapReadTakesAtMostOneBlockAndTheRestFollowsInOrder() throws Exception {
        open("2", null, "false"); // receive bundles off: see IoUringRecvBundleTest
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
