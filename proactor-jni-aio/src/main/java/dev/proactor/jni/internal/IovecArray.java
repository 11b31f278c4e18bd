package dev.proactor.jni.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A reusable {@code struct iovec[]} in native memory describing the remaining bytes of some direct
 * buffers, for {@link IoNative#readv(int, IovecArray)} and {@link IoNative#writev(int, IovecArray)}.
 *
 * <p>It holds the buffers, so they stay reachable while their addresses are in use, and it records
 * whether it was filled for reading or writing so a read-only buffer can never be a read target.
 * Refilling after {@link #clear()} allocates nothing. Not thread-safe.
 */
public final class IovecArray {

    private final NativeMemory memory;
    private final ByteBuffer[] buffers;
    private int count;
    private boolean forRead;

    /** @param capacity most buffers, {@code 1..IOV_MAX} */
    public IovecArray(int capacity) {
        if (capacity <= 0 || capacity > IoNative.IOV_MAX) {
            throw new IllegalArgumentException("capacity must be in 1.." + IoNative.IOV_MAX + ": " + capacity);
        }
        if (IoNative.POINTER_SIZE != Long.BYTES) {
            throw new IllegalStateException("only 64-bit platforms are supported");
        }
        this.memory = NativeMemory.allocate(capacity * IoNative.IOVEC_SIZE);
        this.buffers = new ByteBuffer[capacity];
    }

    /** Forgets all buffers. */
    public void clear() {
        Arrays.fill(buffers, 0, count, null);
        count = 0;
    }

    /**
     * Adds the remaining space of a writable direct buffer as the next read target.
     *
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer or write sources were added
     * @throws IllegalStateException if the array is full
     */
    public IovecArray addReadTarget(ByteBuffer destination) {
        long address = DirectBuffers.readTarget(destination);
        return add(destination, address, true);
    }

    /**
     * Adds the remaining bytes of a direct buffer as the next write source.
     *
     * @throws IllegalArgumentException if the buffer is not direct or read targets were added
     * @throws IllegalStateException if the array is full
     */
    public IovecArray addWriteSource(ByteBuffer source) {
        long address = DirectBuffers.writeSource(source);
        return add(source, address, false);
    }

    private IovecArray add(ByteBuffer buffer, long address, boolean read) {
        if (count > 0 && read != forRead) {
            throw new IllegalArgumentException("cannot mix read targets and write sources in one iovec array");
        }
        if (count == buffers.length) {
            throw new IllegalStateException("iovec array full (" + buffers.length + ")");
        }
        ByteBuffer struct = memory.buffer();
        int offset = count * IoNative.IOVEC_SIZE;
        struct.putLong(offset + IoNative.IOVEC_BASE_OFFSET, address);
        struct.putLong(offset + IoNative.IOVEC_LEN_OFFSET, buffer.remaining());
        buffers[count++] = buffer;
        forRead = read;
        return this;
    }

    /** The native address of the first iovec. */
    public long address() {
        return memory.address();
    }

    /** How many iovecs are filled. */
    public int count() {
        return count;
    }

    void checkUsableFor(boolean read) {
        if (count == 0) {
            throw new IllegalArgumentException("empty iovec array");
        }
        if (read != forRead) {
            throw new IllegalArgumentException(read ? "the iovec array holds write sources, not read targets"
                    : "the iovec array holds read targets, not write sources");
        }
    }

    /** Moves the buffers' positions forward over {@code bytes} transferred bytes, in order. */
    public void advance(long bytes) {
        long left = bytes;
        for (int i = 0; i < count && left > 0; i++) {
            ByteBuffer buffer = buffers[i];
            int step = (int) Math.min(left, buffer.remaining());
            buffer.position(buffer.position() + step);
            left -= step;
        }
    }
}
