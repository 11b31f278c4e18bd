package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * Natives and constants of {@code io.c}: reads and writes on any descriptor.
 *
 * <p>All return {@code >= 0} or {@code -errno}; on a non-blocking descriptor {@code -EAGAIN} means
 * "not now". The {@code long}-address forms are unchecked (see the package documentation); the
 * {@link ByteBuffer} and {@link IovecArray} forms check their arguments and advance positions.
 */
public final class IoNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    /** Most iovecs one readv/writev accepts. */
    public static final int IOV_MAX = NativeConstants.intValue("IOV_MAX");
    static final int IOVEC_SIZE = NativeConstants.intValue("IOVEC_SIZE");
    static final int IOVEC_BASE_OFFSET = NativeConstants.intValue("IOVEC_BASE_OFFSET");
    static final int IOVEC_LEN_OFFSET = NativeConstants.intValue("IOVEC_LEN_OFFSET");
    static final int POINTER_SIZE = NativeConstants.intValue("POINTER_SIZE");

    private IoNative() {
    }

    /** {@code read(2)} of up to {@code length} bytes to {@code address}; unchecked. */
    public static native int read(int fd, long address, int length);

    /** {@code write(2)} of up to {@code length} bytes from {@code address}; unchecked. */
    public static native int write(int fd, long address, int length);

    /** {@code readv(2)} into {@code count} iovecs at {@code iovAddress}; unchecked. */
    public static native long readv(int fd, long iovAddress, int count);

    /** {@code writev(2)} from {@code count} iovecs at {@code iovAddress}; unchecked. */
    public static native long writev(int fd, long iovAddress, int count);

    /** {@code close(2)}; never retried, the descriptor is gone whatever the result. */
    public static native int close(int fd);

    /**
     * Reads into {@code destination}'s remaining space and advances its position.
     *
     * @return bytes read, 0 at end of stream, or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer
     * @throws IllegalStateException as {@link DirectBuffers#checkRange}
     */
    public static int read(int fd, ByteBuffer destination) {
        long base = DirectBuffers.writableAddress(destination);
        int position = destination.position();
        int limit = destination.limit();
        DirectBuffers.checkRange(destination, position, limit);
        long address = base + position;
        int result = read(fd, address, limit - position);
        Reference.reachabilityFence(destination);
        if (result > 0) {
            destination.position(position + result);
        }
        return result;
    }

    /**
     * Writes {@code source}'s remaining bytes and advances its position.
     *
     * @return bytes written or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not direct
     * @throws IllegalStateException as {@link DirectBuffers#checkRange}
     */
    public static int write(int fd, ByteBuffer source) {
        long base = DirectBuffers.address(source);
        int position = source.position();
        int limit = source.limit();
        DirectBuffers.checkRange(source, position, limit);
        long address = base + position;
        int result = write(fd, address, limit - position);
        Reference.reachabilityFence(source);
        if (result > 0) {
            source.position(position + result);
        }
        return result;
    }

    /**
     * Scatters into the read targets of {@code iovecs} and advances their positions.
     *
     * @return bytes read, 0 at end of stream, or {@code -errno}
     * @throws IllegalArgumentException if the array holds a write source or nothing
     */
    public static long readv(int fd, IovecArray iovecs) {
        return iovecs.transfer(fd, true, IoNative::readv);
    }

    /**
     * Gathers from the write sources of {@code iovecs} and advances their positions.
     *
     * @return bytes written or {@code -errno}
     * @throws IllegalArgumentException if the array holds a read target or nothing
     */
    public static long writev(int fd, IovecArray iovecs) {
        return iovecs.transfer(fd, false, IoNative::writev);
    }
}
