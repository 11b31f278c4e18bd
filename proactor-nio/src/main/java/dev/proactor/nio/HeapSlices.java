package dev.proactor.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * Stream reads and writes that hand the JDK at most {@link #MAX_HEAP_BYTES} bytes of heap buffers per call. The
 * JDK moves a heap buffer through a temporary direct buffer as large as the buffer's remaining bytes, and keeps up
 * to 16 of them per thread for reuse, of whatever sizes past calls needed: one 16 MiB heap write, sent a piece at
 * a time as the socket drains, would leave the engine's threads holding many megabytes of direct memory each
 * ({@code BufferConformanceTest.aHeapWriteThatWaitedForRoomKeepsNoNativeMemoryOnceDone}). Capped, what the JDK
 * keeps is bounded by the cap, as the native engines' shared blocks are. Direct buffers go to the JDK untouched
 * (it does not copy them), and a short read or a partial write is what the caller handles anyway.
 *
 * <p>How: the limit of the buffer that reaches the cap is lowered for the call and restored right after (the
 * caller holds the channel's lock, and a pending operation's buffers are not the program's to touch), and the
 * buffers after it are left out of the call; nothing is allocated. Stateless.
 */
final class HeapSlices {

    /** Heap bytes one call may move: the native engines' block size. */
    static final int MAX_HEAP_BYTES = 64 * 1024;

    private HeapSlices() {
    }

    /** {@code ch.read} into {@code length} buffers from {@code offset}, with at most the cap of heap bytes. */
    static long read(ScatteringByteChannel ch, ByteBuffer[] buffers, int offset, int length) throws IOException {
        return transfer(ch, false, buffers, offset, length);
    }

    /** {@code ch.write} from {@code length} buffers from {@code offset}, with at most the cap of heap bytes. */
    static long write(GatheringByteChannel ch, ByteBuffer[] buffers, int offset, int length) throws IOException {
        return transfer(ch, true, buffers, offset, length);
    }

    /**
     * What one {@link #read} call can take: the space of the buffers it hands the JDK (the heap buffer that reaches
     * the cap counted up to the cap, the buffers after it not at all). A read that returns less drained the socket.
     */
    static long space(ByteBuffer[] buffers, int offset, int length) {
        long cut = cut(buffers, offset, length);
        int end = offset + count(cut);
        long total = 0;
        for (int i = offset; i < end; i++) {
            total += buffers[i].remaining();
        }
        return room(cut) == 0 ? total : total - buffers[end - 1].remaining() + room(cut);
    }

    private static long transfer(Object ch, boolean write, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        long cut = cut(buffers, offset, length);
        int count = count(cut);
        ByteBuffer capped = room(cut) == 0 ? null : buffers[offset + count - 1];
        int limit = capped == null ? 0 : capped.limit();
        if (capped != null) {
            capped.limit(capped.position() + room(cut));
        }
        try {
            if (write) {
                GatheringByteChannel out = (GatheringByteChannel) ch;
                return count == 1 ? out.write(buffers[offset]) : out.write(buffers, offset, count);
            }
            ScatteringByteChannel in = (ScatteringByteChannel) ch;
            return count == 1 ? in.read(buffers[offset]) : in.read(buffers, offset, count);
        } finally {
            if (capped != null) {
                capped.limit(limit);
            }
        }
    }

    /**
     * Where one call's buffers end: how many of the {@code length} buffers from {@code offset} it takes (high 32
     * bits, see {@link #count}), and the bytes the last of them may move if it is the heap buffer that reaches the cap
     * (low 32 bits, see {@link #room}; 0 when no buffer is cut). Packed in a long so the hot path allocates nothing.
     */
    private static long cut(ByteBuffer[] buffers, int offset, int length) {
        long heapBytes = 0;
        for (int i = offset, end = offset + length; i < end; i++) {
            ByteBuffer b = buffers[i];
            if (b.isDirect()) {
                continue;
            }
            int remaining = b.remaining();
            if (heapBytes + remaining > MAX_HEAP_BYTES) {
                int room = (int) (MAX_HEAP_BYTES - heapBytes); // a heap buffer left no room is left out
                return (long) (i - offset + (room > 0 ? 1 : 0)) << 32 | room;
            }
            heapBytes += remaining;
        }
        return (long) length << 32;
    }

    private static int count(long cut) {
        return (int) (cut >>> 32);
    }

    private static int room(long cut) {
        return (int) cut;
    }
}
