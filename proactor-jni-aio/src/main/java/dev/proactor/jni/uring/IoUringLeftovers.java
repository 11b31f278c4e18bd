package dev.proactor.jni.uring;

import dev.proactor.spi.IoRequest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The memory of requests still in a ring when their engine closes it (its quiesce gave up waiting for their
 * completions), kept reachable for the life of the process: each direction's native scratch (iovecs, bounce block,
 * socket address, msghdr), the request's buffers as they were, and the engine's provided-buffer ring.
 *
 * <p>Why for ever: closing a ring only starts the cancellation of what is in it; the kernel finishes it on its own
 * time (a request blocked in one of its worker threads, on a file or a device, ends when that I/O ends) and never
 * tells user space when it is done. Until then it may write into the buffers those requests point at, or read the
 * entries of the provided-buffer ring and write into the blocks they name. A direct buffer frees its native memory
 * once unreachable, and the allocator hands it out again, so an unreachable engine would let the kernel write into
 * someone else's memory. What is kept is bounded by what the engines' quiesce logged as left in flight after its
 * time limit: a stuck device or a kernel fault, not a steady growth. A buffer the user still holds may still be
 * written by the kernel meanwhile: keeping it reachable only stops its memory from being freed and handed out again.
 *
 * <p>Thread-safe.
 */
final class IoUringLeftovers {

    /** What is kept: one entry per request, and the provided-buffer rings. */
    private static final Queue<Object> KEPT = new ConcurrentLinkedQueue<>();

    private IoUringLeftovers() {
    }

    /**
     * Keeps what the requests of {@code directions} (each holding a request the kernel may still have) and the
     * engine's {@code providedBuffers} ring (or null) point at. Under no channel's monitor: a direction whose request
     * is still there at the engine's close is touched by nobody else any more.
     */
    static void keep(List<IoUringDirection> directions, IoUringBufferRing providedBuffers) {
        for (IoUringDirection dir : directions) {
            KEPT.add(new Request(dir, buffersOf(dir.request)));
        }
        if (providedBuffers != null) {
            KEPT.add(providedBuffers);
        }
    }

    /**
     * The request's buffers now: the core reuses a request object once it was completed (by the demultiplexor's
     * close, here), so the object alone would not keep them.
     */
    private static ByteBuffer[] buffersOf(IoRequest request) {
        if (request == null) {
            return new ByteBuffer[0];
        }
        List<ByteBuffer> buffers = new ArrayList<>();
        ByteBuffer[] array = request.buffers();
        if (array != null) {
            for (int i = request.offset(), end = i + request.length(); i < end; i++) {
                buffers.add(array[i]);
            }
        }
        if (request.header() != null) {
            buffers.add(request.header());
        }
        if (request.trailer() != null) {
            buffers.add(request.trailer());
        }
        return buffers.toArray(new ByteBuffer[0]);
    }

    /** Whether {@code memory} (a direction, a buffer or a provided-buffer ring) is kept (tests). */
    static boolean holds(Object memory) {
        for (Object kept : KEPT) {
            if (kept == memory) {
                return true;
            }
            if (kept instanceof Request r && r.holds(memory)) {
                return true;
            }
        }
        return false;
    }

    /** A request left in a closed ring: its direction (and with it the scratch memory) and its buffers. */
    private record Request(IoUringDirection direction, ByteBuffer[] buffers) {

        boolean holds(Object memory) {
            if (direction == memory) {
                return true;
            }
            for (ByteBuffer b : buffers) {
                if (b == memory) {
                    return true;
                }
            }
            return false;
        }
    }
}
