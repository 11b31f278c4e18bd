package dev.proactor.examples;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The read buffers of the echo service's connections: a connection takes one when it starts and gives it back when
 * it ends, and the next connection gets it instead of a new one. A server that accepts thousands of connections a
 * second would otherwise allocate (and zero) a buffer for each, and direct memory is freed only by the garbage
 * collector, which the JDK then runs whenever the direct-memory limit is reached. At most {@link #KEEP} buffers are
 * kept; more given back are left to the collector, so a burst of connections does not hold its memory for ever.
 *
 * <p>A buffer is given back only once no operation holds it: the echo connection has one operation at a time, and
 * gives its buffer back in the callback of its last (a completed operation is one the engine no longer writes into).
 *
 * <p>Threads: any; the free list is guarded by this object's monitor (held for a push or a pop).
 */
final class EchoBuffers {

    /** Free buffers kept at most. */
    static final int KEEP = 1024;

    private final int size;
    private final boolean heap;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private long allocated;

    EchoBuffers(int size, boolean heap) {
        this.size = size;
        this.heap = heap;
    }

    /** A cleared buffer of the service's size: a free one, or a new one. */
    synchronized ByteBuffer take() {
        ByteBuffer buffer = free.pollLast(); // the most recently used: likelier still in the caches
        if (buffer != null) {
            return buffer.clear();
        }
        allocated++;
        return heap ? ByteBuffer.allocate(size) : ByteBuffer.allocateDirect(size);
    }

    /** Gives back a buffer no operation holds any more. */
    synchronized void giveBack(ByteBuffer buffer) {
        if (free.size() < KEEP) {
            free.addLast(buffer);
        }
    }

    /** Buffers allocated so far (tests). */
    synchronized long allocated() {
        return allocated;
    }
}
