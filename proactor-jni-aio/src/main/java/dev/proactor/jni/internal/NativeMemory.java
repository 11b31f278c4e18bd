package dev.proactor.jni.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A block of native memory for structs the kernel reads or writes (epoll events, iovecs, socket
 * addresses), backed by a direct buffer in native byte order so Java reads and writes it without
 * {@code Unsafe}.
 *
 * <p>The memory is freed when this object becomes unreachable: code that passes {@link #address()} to
 * a native call must keep the object reachable until the call returns
 * ({@link java.lang.ref.Reference#reachabilityFence(Object)}).
 */
public final class NativeMemory {

    private final ByteBuffer buffer;
    private final long address;

    private NativeMemory(ByteBuffer buffer) {
        this.buffer = buffer;
        this.address = DirectBuffers.address(buffer);
    }

    /**
     * @param size bytes, {@code > 0}
     * @return zero-filled native memory
     */
    public static NativeMemory allocate(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        return new NativeMemory(ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder()));
    }

    /** The memory as a buffer in native byte order; use absolute get/put only, the position is not used. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The base address. */
    public long address() {
        return address;
    }

    /** The size in bytes. */
    public int size() {
        return buffer.capacity();
    }

    /**
     * The address of {@code [offset, offset + length)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the block
     */
    public long address(int offset, int length) {
        Objects.checkFromIndexSize(offset, length, size());
        return address + offset;
    }
}
