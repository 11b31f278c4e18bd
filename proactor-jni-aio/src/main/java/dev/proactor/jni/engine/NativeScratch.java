package dev.proactor.jni.engine;

import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import java.nio.ByteBuffer;

/**
 * Native helpers of one direction of one channel of the epoll or io_uring engine, made on first use and then
 * reused, so the steady state allocates nothing: the base address of the last direct buffer (one JNI call per new
 * buffer, not per operation), an iovec array for gathering/scattering, a bounce block for heap buffers whose bytes
 * must stay in native memory after a system call returns (io_uring's file and datagram requests, a file
 * transmission's copy window; a transfer done within one call takes a shared {@link BounceBlocks} block instead),
 * and a socket address. io_uring's SQE points at this memory, so there it stays untouched from submission until the
 * request's completion.
 *
 * <p>Not thread-safe: used only under the lock of the channel it belongs to.
 */
public final class NativeScratch {

    /** Iovecs made at first; the array grows, up to {@code IOV_MAX}, when a request has more buffers. */
    private static final int MIN_IOVECS = 16;
    /** Heap-buffer transfers (and io_uring's transmitted file bytes) move at most this much per system call. */
    public static final int BOUNCE_SIZE = 64 * 1024;

    private ByteBuffer cachedBuffer;
    private long cachedAddress;
    private IovecArray iovecs;
    private NativeMemory bounce;
    private Sockaddr sockaddr;

    /** The base address of a direct buffer, remembered for the next operation on the same buffer. */
    public long baseAddress(ByteBuffer direct) {
        if (direct != cachedBuffer) {
            cachedAddress = DirectBuffers.address(direct);
            cachedBuffer = direct;
        }
        return cachedAddress;
    }

    /**
     * The iovec array, cleared, with room for {@code buffers} iovecs or {@code IOV_MAX}, whichever is less: one
     * system call takes at most {@code IOV_MAX}, so a read over more buffers fills what fits in the first
     * {@code IOV_MAX} with space, and a write continues with the rest in its next call. Grows (once per new
     * maximum) instead of starting at {@code IOV_MAX}, so channels that never scatter over many buffers keep 256
     * bytes of iovecs, not 16 KiB.
     */
    public IovecArray iovecs(int buffers) {
        int wanted = Math.min(Math.max(buffers, MIN_IOVECS), IoNative.IOV_MAX);
        if (iovecs == null || iovecs.capacity() < wanted) {
            iovecs = new IovecArray(wanted);
        }
        iovecs.clear();
        return iovecs;
    }

    /** The iovecs of the transfer in flight (after {@link #iovecs(int)}), not cleared. */
    public IovecArray currentIovecs() {
        return iovecs;
    }

    /**
     * This direction's own bounce block (kept while the channel lives; see {@link BounceBlocks} for the shared ones).
     */
    public NativeMemory bounce() {
        if (bounce == null) {
            bounce = NativeMemory.allocate(BOUNCE_SIZE);
        }
        return bounce;
    }

    /** The socket address block (peer of an accept, target of a connect). */
    public Sockaddr sockaddr() {
        if (sockaddr == null) {
            sockaddr = new Sockaddr();
        }
        return sockaddr;
    }
}
