package dev.proactor.tls;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Buffers of one capacity that TLS channels take while they use them and give back when empty, shared by every
 * channel of the process: the send buffer of a channel is needed only from the moment it encrypts until the
 * socket has written the records, its plaintext overflow buffer only while a record larger than the reader's
 * buffer is handed out in pieces. An idle connection so keeps none, and busy ones reuse the same few buffers,
 * which stay in the CPU's caches, instead of each writing into its own cold one.
 *
 * <p><b>How many are kept.</b> Every buffer given back is kept (none is freed): the spares never exceed the most
 * that were ever in use at once, which is no more than the channels would hold if each kept its own; a steady
 * load allocates nothing. Taking looks at the calling thread's stripe first, then at the others, and allocates
 * only when no stripe has a spare, so buffers given back on one thread serve takers on another.
 *
 * <p><b>Threads.</b> Thread-safe; each stripe is a stack under its own lock, held for a push or a pop only.
 * Buffers are returned cleared; a buffer given back must no longer be referenced by its giver, and never by an
 * operation in flight.
 */
final class SpareBuffers {

    private static final ConcurrentHashMap<Long, SpareBuffers> SHARED = new ConcurrentHashMap<>();
    /** A power of two, at least the number of processors (so that the mask picks a stripe). */
    private static final int STRIPES = Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 2 - 1);

    private final int capacity;
    private final boolean direct;
    private final Stripe[] stripes = new Stripe[STRIPES];

    private SpareBuffers(int capacity, boolean direct) {
        this.capacity = capacity;
        this.direct = direct;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
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
        int home = home();
        for (int i = 0; i < STRIPES; i++) {
            ByteBuffer b = stripes[(home + i) & (STRIPES - 1)].pop();
            if (b != null) {
                return b;
            }
        }
        return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }

    /**
     * Keeps {@code b} for a later {@link #take()} if it is one of these (a buffer of another capacity, as after a
     * channel grew its own, is left to the garbage collector). The caller drops its reference.
     */
    void give(ByteBuffer b) {
        if (b.capacity() == capacity && b.isDirect() == direct) {
            b.clear();
            stripes[home()].push(b);
        }
    }

    /** Spare buffers kept now (for tests and diagnostics). */
    int spares() {
        int n = 0;
        for (Stripe s : stripes) {
            n += s.size();
        }
        return n;
    }

    private static int home() {
        return System.identityHashCode(Thread.currentThread()) & (STRIPES - 1);
    }

    /** A stack of spares; the array grows to the most ever kept at once, then allocates nothing. */
    private static final class Stripe {
        private ByteBuffer[] stack = new ByteBuffer[8];
        private int size;

        synchronized ByteBuffer pop() {
            if (size == 0) {
                return null;
            }
            ByteBuffer b = stack[--size];
            stack[size] = null;
            return b;
        }

        synchronized void push(ByteBuffer b) {
            if (size == stack.length) {
                stack = Arrays.copyOf(stack, size * 2);
            }
            stack[size++] = b;
        }

        synchronized int size() {
            return size;
        }
    }
}
