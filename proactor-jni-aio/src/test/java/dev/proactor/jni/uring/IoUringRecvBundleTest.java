package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.IoUring;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.StartResult;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Receive bundles ({@code proactor.uring.recvBundle}, {@link IoUringBundles}): on a channel whose last read brought
 * a block or more, a heap read with room for several blocks of the provided-buffer ring takes them in one completion,
 * every byte in order; what the kernel brings
 * beyond the read's room is held for the next reads and given back to the ring as they take it, or at the channel's
 * close. The multishot receive is off here ({@code multishotRecv=off}): bundles are a read's own receive.
 */
class IoUringRecvBundleTest extends ProvidedRingTestBase {

    private static final int BLOCK = IoUringFeatures.BLOCK_SIZE;

    private EngineChannel openWithBundles(String blocks) throws Exception {
        assumeTrue(IoUring.isAvailable() && IoUring.isRecvBundleSupported(), "the kernel has no receive bundles");
        open(blocks, "off", "true");
        return connect();
    }

    /** One read into a heap buffer of {@code room} bytes, waited for; it succeeded. */
    private IoRequest readOnce(EngineChannel channel, int room) throws Exception {
        IoRequest request = read(channel, ByteBuffer.allocate(room));
        if (engine.start(request) != StartResult.COMPLETED) {
            await(request);
        }
        assertNull(request.error());
        return request;
    }

    /**
     * Sends {@code length} bytes of the test pattern from the peer of connection {@code i}; returns them once they, or
     * four blocks of them, are in the near end's socket (its receive buffer may not take more at once).
     */
    private byte[] sendAndAwait(int i, int length) throws Exception {
        byte[] sent = pattern(length);
        peers.get(i).write(ByteBuffer.wrap(sent));
        awaitReadable(i, Math.min(length, 4 * BLOCK));
        return sent;
    }

    /** A block from the peer of connection 0, read: the channel's reads are bulk from now on. */
    private void bulkRead(EngineChannel channel) throws Exception {
        sendAndAwait(0, BLOCK);
        assertEquals(BLOCK, readOnce(channel, BLOCK).bytes());
    }

    /** Reads into heap buffers of {@code room} bytes until {@code total} bytes came; returns them, in order. */
    private byte[] readAll(EngineChannel channel, int room, int total, int[] largestRead) throws Exception {
        ByteBuffer received = ByteBuffer.allocate(total);
        while (received.hasRemaining()) {
            ByteBuffer heap = ByteBuffer.allocate(room);
            IoRequest request = read(channel, heap);
            if (engine.start(request) != StartResult.COMPLETED) {
                await(request);
            }
            assertNull(request.error());
            assertTrue(request.bytes() > 0 && request.bytes() <= room, "a read within its room: " + request.bytes());
            largestRead[0] = Math.max(largestRead[0], (int) request.bytes());
            received.put(heap.flip());
        }
        return received.array();
    }

    @Test
    void aReadWithRoomForSeveralBlocksTakesThemInOneCompletion() throws Exception {
        EngineChannel channel = openWithBundles("16");
        int[] largest = {0};
        for (int round = 0; round < 20; round++) {
            byte[] sent = pattern(3 * BLOCK + round * 100);
            IoRequest request = read(channel, ByteBuffer.allocate(4 * BLOCK));
            assertNotEquals(StartResult.COMPLETED, engine.start(request), "the read waits in the ring");
            peers.get(0).write(ByteBuffer.wrap(sent)); // one write: on loopback, in the socket at once
            await(request);
            assertNull(request.error());
            ByteBuffer first = request.firstBuffer().flip();
            largest[0] = Math.max(largest[0], first.remaining());
            byte[] rest = readAll(channel, 4 * BLOCK, sent.length - first.remaining(), largest);
            ByteBuffer all = ByteBuffer.allocate(sent.length).put(first).put(rest);
            assertArrayEquals(sent, all.array(), "every byte, in order");
        }
        // Without bundles no read exceeds a block (IoUringProvidedBuffersTest); one that did took several at once.
        assertTrue(largest[0] > BLOCK, "a read took more than one block: " + largest[0]);
        assertEquals(0, engine.providedBuffers().held(), "nothing left held");
        assertEquals(0, engine.providedBuffers().shortages(), "sixteen blocks served every read");
    }

    @Test
    void bytesBeyondAReadsRoomAreHeldForTheNextReadsInOrder() throws Exception {
        EngineChannel channel = openWithBundles("16");
        byte[] sent = sendAndAwait(0, 8 * BLOCK);
        int[] largest = {0};
        byte[] received = readAll(channel, 2 * BLOCK + 100, sent.length, largest); // asks for two whole blocks
        assertArrayEquals(sent, received, "every byte, in order, whatever was held between reads");
        assertEquals(0, engine.providedBuffers().held(), "the reads took every held block, and gave it back");
    }

    @Test
    void whatABundleBroughtBeyondItsReadIsHeldAndGoesBackAtTheClose() throws Exception {
        assumeTrue(linuxAtLeast(6, 12), "Linux 6.12+ receives again into a bundle when more bytes are queued");
        EngineChannel channel = openWithBundles("8");
        bulkRead(channel);
        sendAndAwait(0, 6 * BLOCK);
        assertEquals(2 * BLOCK, readOnce(channel, 2 * BLOCK).bytes(), "the read filled its room");
        assertTrue(engine.providedBuffers().held() > 0, "the kernel brought more, held for the next read");
        channel.close();
        assertEquals(0, engine.providedBuffers().held(), "the close gave the held blocks back");

        EngineChannel next = connect();
        byte[] sent = pattern(7 * BLOCK);
        peers.get(1).write(ByteBuffer.wrap(sent));
        int[] largest = {0};
        assertArrayEquals(sent, readAll(next, 8 * BLOCK, sent.length, largest));
        assertEquals(0, engine.providedBuffers().shortages(), "every block was back in the ring");
    }

    @Test
    void aChannelReadsBundlesOnlyOnceItsReadsBringBulkData() throws Exception {
        EngineChannel channel = openWithBundles("8");
        byte[] sent = sendAndAwait(0, 4 * BLOCK);
        IoRequest first = readOnce(channel, 4 * BLOCK);
        assertEquals(BLOCK, first.bytes(), "a channel's first read takes one block");
        IoRequest second = readOnce(channel, 4 * BLOCK);
        assertEquals(3 * BLOCK, second.bytes(), "after a read of a block, the rest in one completion");
        ByteBuffer all = ByteBuffer.allocate(sent.length).put(first.firstBuffer().flip())
                .put(second.firstBuffer().flip());
        assertArrayEquals(sent, all.array());
    }

    @Test
    void everyBlockOfABundleGoesBackToTheRing() throws Exception {
        EngineChannel channel = openWithBundles("4");
        bulkRead(channel);
        for (int round = 0; round < 10; round++) {
            byte[] sent = sendAndAwait(0, 4 * BLOCK);
            IoRequest request = readOnce(channel, 4 * BLOCK);
            assertEquals(4 * BLOCK, request.bytes(), "one read took the ring's four blocks: all were back");
            assertArrayEquals(sent, request.firstBuffer().array());
        }
        assertEquals(0, engine.providedBuffers().held());
    }

    @Test
    void withBundlesOffAReadTakesOneBlock() throws Exception {
        assumeTrue(IoUring.isAvailable());
        open("16", "off", "false");
        EngineChannel channel = connect();
        byte[] sent = sendAndAwait(0, 5 * BLOCK);
        int[] largest = {0};
        assertArrayEquals(sent, readAll(channel, 4 * BLOCK, sent.length, largest));
        assertTrue(largest[0] <= BLOCK, "one block per read: " + largest[0]);
    }

    private static boolean linuxAtLeast(int major, int minor) {
        String[] parts = System.getProperty("os.version", "0.0").split("[.-]");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || ma == major && mi >= minor;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
