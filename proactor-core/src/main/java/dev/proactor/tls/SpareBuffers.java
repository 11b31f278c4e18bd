package dev.proactor.tls;

import dev.proactor.spi.Spares;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Buffers of one capacity that TLS channels take while they use them and give back when empty, shared by every
 * channel of the process: the send buffer of a channel is needed only from the moment it encrypts until the
 * socket has written the records, its plaintext overflow buffer only while a record larger than the reader's
 * buffer is handed out in pieces. An idle connection so keeps none, and busy ones reuse the same few buffers,
 * which stay in the CPU's caches, instead of each writing into its own cold one.
 *
 * <p>One {@link Spares} pool per capacity and kind (what is kept, and the threads, are its rules); buffers are
 * returned cleared, and a buffer of another capacity or kind given back is left to the garbage collector.
 */
final class SpareBuffers {

    private static final ConcurrentHashMap<Long, SpareBuffers> SHARED = new ConcurrentHashMap<>();

    private final int capacity;
    private final boolean direct;
    private final Spares<ByteBuffer> spares;

    private SpareBuffers(int capacity, boolean direct) {
        this.capacity = capacity;
        this.direct = direct;
        this.spares = new Spares<>(() -> direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity));
    }

    /** The process's spares of {@code capacity} bytes, direct or on the heap (made on first use). */
    static SpareBuffers of(int capacity, boolean direct) {
        return SHARED.computeIfAbsent(direct ? -(long) capacity - 1 : capacity, k -> new SpareBuffers(capacity,
                direct));
    }

    /** The capacity of every buffer taken here. */
    int capacity() {
        return capacity;
    }

    /** A cleared buffer of {@link #capacity()} bytes: a spare if any stripe has one, else a new one. */
    ByteBuffer take() {
        return spares.take();
    }

    /**
     * Keeps {@code b} for a later {@link #take()} if it is one of these (a buffer of another capacity, as after a
     * channel grew its own, is left to the garbage collector). The caller drops its reference.
     */
    void give(ByteBuffer b) {
        if (b.capacity() == capacity && b.isDirect() == direct) {
            b.clear();
            spares.give(b);
        }
    }

    /** Spare buffers kept now (for tests and diagnostics). */
    int spares() {
        return spares.spares();
    }
}
