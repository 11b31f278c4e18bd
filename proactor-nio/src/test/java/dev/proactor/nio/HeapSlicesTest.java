package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link HeapSlices} hands the JDK: at most 64 KiB of heap buffers per call, every limit restored after. */
class HeapSlicesTest {

    private static final int CAP = HeapSlices.MAX_HEAP_BYTES;

    /** A channel that records the remaining bytes of each buffer it is given, and moves them all. */
    private static final class RecordingChannel implements GatheringByteChannel, ScatteringByteChannel {
        final List<Integer> seen = new ArrayList<>();

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            return move(srcs, offset, length);
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            return move(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) {
            return (int) move(new ByteBuffer[] {src}, 0, 1);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            return move(dsts, offset, length);
        }

        @Override
        public long read(ByteBuffer[] dsts) {
            return move(dsts, 0, dsts.length);
        }

        @Override
        public int read(ByteBuffer dst) {
            return (int) move(new ByteBuffer[] {dst}, 0, 1);
        }

        private long move(ByteBuffer[] buffers, int offset, int length) {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                int n = buffers[i].remaining();
                seen.add(n);
                buffers[i].position(buffers[i].limit());
                total += n;
            }
            return total;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aLargeHeapBufferIsSlicedAndItsLimitRestored() throws Exception {
        RecordingChannel ch = new RecordingChannel();
        ByteBuffer big = ByteBuffer.allocate(3 * CAP);
        big.position(10);
        assertEquals(CAP, HeapSlices.write(ch, new ByteBuffer[] {big}, 0, 1));
        assertEquals(List.of(CAP), ch.seen);
        assertEquals(10 + CAP, big.position());
        assertEquals(3 * CAP, big.limit(), "limit restored");
        assertEquals(CAP, HeapSlices.read(ch, new ByteBuffer[] {big}, 0, 1));
        assertEquals(3 * CAP, big.limit(), "limit restored");
    }

    @Test
    void directBuffersPassWhole() throws Exception {
        RecordingChannel ch = new RecordingChannel();
        ByteBuffer direct = ByteBuffer.allocateDirect(3 * CAP);
        assertEquals(3 * CAP, HeapSlices.write(ch, new ByteBuffer[] {direct}, 0, 1));
        assertEquals(List.of(3 * CAP), ch.seen);
    }

    @Test
    void gatheringCountsHeapBytesOnlyAndLeavesOutWhatIsPastTheCap() throws Exception {
        RecordingChannel ch = new RecordingChannel();
        ByteBuffer[] buffers = {
            ByteBuffer.allocate(1), // outside the range
            ByteBuffer.allocate(40_000),
            ByteBuffer.allocateDirect(100_000),
            ByteBuffer.allocate(40_000),
            ByteBuffer.allocate(10_000),
        };
        long n = HeapSlices.write(ch, buffers, 1, 4);
        assertEquals(List.of(40_000, 100_000, CAP - 40_000), ch.seen, "the heap buffer reaching the cap is cut,"
                + " the ones after it left out");
        assertEquals(40_000 + 100_000 + CAP - 40_000, n);
        assertEquals(40_000, buffers[3].limit(), "limit restored");
        assertEquals(0, buffers[4].position(), "left out");
    }

    @Test
    void aHeapBufferLeftNoRoomIsLeftOut() throws Exception {
        RecordingChannel ch = new RecordingChannel();
        ByteBuffer[] buffers = {ByteBuffer.allocate(CAP), ByteBuffer.allocate(5)};
        assertEquals(CAP, HeapSlices.read(ch, buffers, 0, 2));
        assertEquals(List.of(CAP), ch.seen);
        assertEquals(0, buffers[1].position());
    }

    @Test
    void spaceIsWhatOneReadCallTakes() throws Exception {
        ByteBuffer[] buffers = {
            ByteBuffer.allocate(40_000),
            ByteBuffer.allocateDirect(100_000),
            ByteBuffer.allocate(40_000),
            ByteBuffer.allocateDirect(7), // after the cut: not part of the call
        };
        long space = HeapSlices.space(buffers, 0, 4);
        assertEquals(40_000 + 100_000 + CAP - 40_000, space);
        assertEquals(space, HeapSlices.read(new RecordingChannel(), buffers, 0, 4));
        ByteBuffer[] small = {ByteBuffer.allocate(10), ByteBuffer.allocateDirect(20)};
        assertEquals(30, HeapSlices.space(small, 0, 2), "nothing cut: every buffer's space");
    }
}
