package dev.proactor.nio2.files;

import dev.proactor.nio2.ProactorFiles;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The pool of direct buffers a heap buffer's bytes are copied through on their way to and from the file engine,
 * shared by every file channel of {@link ProactorFiles}. Each buffer is aligned to {@value #ALIGNMENT} bytes, so a
 * chunk of it is also a valid {@code O_DIRECT} transfer (4096 is a multiple of every direct-I/O alignment in
 * practice), and has a power-of-two size from {@value #MIN} to {@value #MAX} bytes; a larger heap buffer moves in
 * chunks of {@value #MAX}.
 *
 * <p>Steady state allocates nothing: a taken buffer goes back with {@link #give}, and each size keeps up to
 * {@value #RETAINED_BYTES} bytes (at least 16 buffers) for the next one; what is beyond is left to the garbage
 * collector. The pools are {@link ArrayBlockingQueue}s: no allocation per offer or poll, and a contended one
 * parks rather than blocking a virtual thread's carrier on a monitor.
 *
 * <p>Thread-safe.
 */
final class BounceBuffers {

    /** Alignment of every buffer's address. */
    static final int ALIGNMENT = 4096;
    /** Smallest buffer. */
    static final int MIN = 4096;
    /** Largest buffer: the most one chunk moves. */
    static final int MAX = 256 * 1024;
    /** Bytes each size keeps for reuse. */
    static final int RETAINED_BYTES = 4 << 20;

    private static final int SHIFT_MIN = Integer.numberOfTrailingZeros(MIN);
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final ArrayBlockingQueue<ByteBuffer>[] POOLS =
            new ArrayBlockingQueue[Integer.numberOfTrailingZeros(MAX) - SHIFT_MIN + 1];

    static {
        for (int i = 0; i < POOLS.length; i++) {
            POOLS[i] = new ArrayBlockingQueue<>(Math.max(16, RETAINED_BYTES / (MIN << i)));
        }
    }

    private BounceBuffers() {
    }

    /**
     * A cleared aligned direct buffer for a chunk of {@code length} bytes: its limit is {@code min(length, MAX)},
     * its capacity the power of two at or above that (at least {@value #MIN}).
     *
     * @throws IllegalArgumentException if {@code length} is not positive
     * @throws OutOfMemoryError         if direct memory cannot hold a new one
     */
    static ByteBuffer take(int length) {
        if (length <= 0) {
            throw new IllegalArgumentException("a chunk needs a positive length, was " + length);
        }
        int chunk = Math.min(length, MAX);
        int index = sizeClass(chunk);
        ByteBuffer b = POOLS[index].poll();
        if (b == null) {
            int capacity = MIN << index;
            b = ByteBuffer.allocateDirect(capacity + ALIGNMENT).alignedSlice(ALIGNMENT).limit(capacity).slice();
        }
        return b.limit(chunk);
    }

    /** Gives a buffer from {@link #take} back; nothing may use it afterwards. */
    static void give(ByteBuffer b) {
        b.clear();
        POOLS[sizeClass(b.capacity())].offer(b);
    }

    /** The pool index of the smallest power-of-two size at or above {@code chunk} (at most {@value #MAX}). */
    private static int sizeClass(int chunk) {
        int size = chunk <= MIN ? MIN : Integer.highestOneBit(chunk - 1) << 1;
        return Integer.numberOfTrailingZeros(size) - SHIFT_MIN;
    }
}
