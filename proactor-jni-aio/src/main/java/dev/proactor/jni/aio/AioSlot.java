package dev.proactor.jni.aio;

import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.IoNative;
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

    /** Heap-buffer bounce blocks up to this size are kept for the next request; larger ones are not. */
    private static final int KEPT_BOUNCE = 1 << 20;

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

    /** A direct buffer of at least {@code size} bytes for a heap buffer's bytes; kept when small. */
    ByteBuffer bounce(int size) {
        if (bounce != null && bounce.capacity() >= size) {
            activeBounce = bounce;
            return bounce;
        }
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(size, 4096));
        if (b.capacity() <= KEPT_BOUNCE) {
            bounce = b;
        }
        activeBounce = b;
        return b;
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
