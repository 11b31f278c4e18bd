package dev.proactor.jni.epoll;

import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import java.nio.ByteBuffer;

/**
 * Native helpers of one direction of one channel, made on first use and then reused, so the steady
 * state allocates nothing: the base address of the last direct buffer (one JNI call per new buffer, not
 * per operation), an iovec array for gathering/scattering, a bounce block for heap buffers, and a
 * socket address. Used only under the channel's lock.
 */
final class EpollScratch {

    /** Most buffers one readv/writev covers; a longer request just takes several calls. */
    static final int IOV_CAPACITY = 16;
    /** Heap-buffer transfers move at most this much per system call. */
    static final int BOUNCE_SIZE = 64 * 1024;

    private ByteBuffer cachedBuffer;
    private long cachedAddress;
    private IovecArray iovecs;
    private NativeMemory bounce;
    private Sockaddr sockaddr;

    /** The base address of a direct buffer, remembered for the next operation on the same buffer. */
    long baseAddress(ByteBuffer direct) {
        if (direct != cachedBuffer) {
            cachedAddress = DirectBuffers.address(direct);
            cachedBuffer = direct;
        }
        return cachedAddress;
    }

    /** The iovec array, cleared. */
    IovecArray iovecs() {
        if (iovecs == null) {
            iovecs = new IovecArray(IOV_CAPACITY);
        }
        iovecs.clear();
        return iovecs;
    }

    /** The bounce block for heap buffers. */
    NativeMemory bounce() {
        if (bounce == null) {
            bounce = NativeMemory.allocate(BOUNCE_SIZE);
        }
        return bounce;
    }

    /** The socket address block (peer of an accept, target of a connect). */
    Sockaddr sockaddr() {
        if (sockaddr == null) {
            sockaddr = new Sockaddr();
        }
        return sockaddr;
    }
}
