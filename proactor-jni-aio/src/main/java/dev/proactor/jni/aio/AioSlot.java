package dev.proactor.jni.aio;

import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.spi.IoRequest;
import java.nio.ByteBuffer;

/**
 * One iocb of an {@link AioContext} and what its request needs until it completes: the request, its channel, how
 * its bytes were handed to the kernel (straight from a direct buffer, through the slot's bounce buffer for a heap
 * buffer, or as an iovec array for several buffers) and, for a cancel the kernel finishes later, its reason.
 * Guarded by the context: a slot belongs to whoever took it from the free list until it is given back.
 */
final class AioSlot {

    /** How the request's bytes are described to the kernel. */
    enum Mode { DIRECT, BOUNCE, VECTOR }

    /**
     * Largest bounce block: one iocb moves at most this many bytes of a heap buffer (a read then completes short,
     * as POSIX allows; a write goes on from where it stopped until every byte is written), so a huge heap buffer
     * never makes the engine allocate its whole size in direct memory. Each slot keeps its block for the next
     * request, so heap-buffer I/O allocates nothing in steady state and the context holds at most
     * {@code AioContext.DEPTH} blocks.
     */
    static final int MAX_BOUNCE = 256 * 1024;

    final int index;
    final long iocbAddress;

    IoRequest request;
    AioFileChannel channel;
    Mode mode;
    /** The single buffer (DIRECT, BOUNCE) and its position when submitted. */
    ByteBuffer buffer;
    int bufferPosition;
    /** Reason of a cancel the kernel accepted but reports through io_getevents; null otherwise. */
    Throwable cancelReason;

    /** The bounce buffer of the request in flight (BOUNCE), which may be larger than what is kept. */
    ByteBuffer activeBounce;

    private ByteBuffer bounce;
    private IovecArray iovec;

    AioSlot(int index, long iocbAddress) {
        this.index = index;
        this.iocbAddress = iocbAddress;
    }

    /**
     * The slot's direct block for a heap buffer's bytes, of at least {@code min(size, MAX_BOUNCE)} bytes; grown (by
     * doubling, up to {@link #MAX_BOUNCE}) and kept.
     *
     * @throws OutOfMemoryError if direct memory cannot hold it (the caller fails this request only)
     */
    ByteBuffer bounce(int size) {
        int wanted = Math.min(size, MAX_BOUNCE);
        if (bounce == null || bounce.capacity() < wanted) {
            int capacity = Math.max(4096, bounce == null ? 0 : bounce.capacity());
            while (capacity < wanted) {
                capacity *= 2;
            }
            bounce = null; // the old block is garbage either way
            bounce = ByteBuffer.allocateDirect(Math.min(capacity, MAX_BOUNCE));
        }
        activeBounce = bounce;
        return bounce;
    }

    /** An empty iovec array for {@code buffers} buffers, reused when large enough. */
    IovecArray iovec(int buffers) {
        if (iovec == null || iovec.capacity() < buffers) {
            iovec = new IovecArray(Math.min(Math.max(buffers, 8), IoNative.IOV_MAX));
        }
        iovec.clear();
        return iovec;
    }

    /** The iovec array filled by the last {@link #iovec(int)}. */
    IovecArray filledIovec() {
        return iovec;
    }

    /** Drops the references to the finished request and its buffers. */
    void clear() {
        request = null;
        channel = null;
        mode = null;
        buffer = null;
        activeBounce = null;
        cancelReason = null;
        if (iovec != null) {
            iovec.clear();
        }
    }
}
