package dev.proactor.jni.internal;

import java.lang.ref.Reference;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A reusable {@code struct iovec[]} in native memory describing the remaining bytes of some direct
 * buffers, for {@link IoNative#readv(int, IovecArray)} and {@link IoNative#writev(int, IovecArray)}.
 *
 * <p>Buffers with nothing remaining are skipped, as the JDK's scattering and gathering calls skip them: a
 * zero-length iovec moves nothing, takes one of the {@code IOV_MAX} slots a call has, and when every iovec is
 * empty {@code readv} returns 0, which would read as end of stream.
 *
 * <p>Each buffer's position and limit are read once, when it is added, checked
 * ({@link DirectBuffers#checkRange}) and kept: the iovec and {@link #advance(long)} use those, so the kernel never
 * gets a range outside the buffer and the positions after the call follow from what it was given.
 *
 * <p>It holds the buffers, so they stay reachable while their addresses are in use, and it records
 * whether it was filled for reading or writing so a read-only buffer can never be a read target.
 * Refilling after {@link #clear()} allocates nothing. Not thread-safe.
 */
public final class IovecArray {

    private final NativeMemory memory;
    private final ByteBuffer[] buffers;
    /** Position of each added buffer when it was added. */
    private final int[] positions;
    /** Bytes each iovec covers (the buffer's remaining bytes when it was added), never 0. */
    private final int[] lengths;
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
        this.positions = new int[capacity];
        this.lengths = new int[capacity];
    }

    /** Bytes the added iovecs cover together. */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += lengths[i];
        }
        return total;
    }

    /** Forgets all buffers. */
    public void clear() {
        Arrays.fill(buffers, 0, count, null);
        count = 0;
    }

    /**
     * Adds the remaining space of a writable direct buffer as the next read target; a buffer with no space
     * remaining is skipped.
     *
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer or write sources were added
     * @throws IllegalStateException if the array is full, or as {@link DirectBuffers#checkRange}
     */
    public IovecArray addReadTarget(ByteBuffer destination) {
        if (destination != null && destination.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        return add(destination, true);
    }

    /**
     * Adds the remaining bytes of a direct buffer as the next write source; a buffer with no bytes remaining is
     * skipped.
     *
     * @throws IllegalArgumentException if the buffer is not direct or read targets were added
     * @throws IllegalStateException if the array is full, or as {@link DirectBuffers#checkRange}
     */
    public IovecArray addWriteSource(ByteBuffer source) {
        return add(source, false);
    }

    private IovecArray add(ByteBuffer buffer, boolean read) {
        long base = DirectBuffers.address(buffer);
        if (count > 0 && read != forRead) {
            throw new IllegalArgumentException("cannot mix read targets and write sources in one iovec array");
        }
        if (count == buffers.length) {
            throw new IllegalStateException("iovec array full (" + buffers.length + ")");
        }
        int position = buffer.position();
        int limit = buffer.limit();
        DirectBuffers.checkRange(buffer, position, limit);
        int length = limit - position;
        if (length == 0) {
            return this;
        }
        ByteBuffer struct = memory.buffer();
        int offset = count * IoNative.IOVEC_SIZE;
        struct.putLong(offset + IoNative.IOVEC_BASE_OFFSET, base + position);
        struct.putLong(offset + IoNative.IOVEC_LEN_OFFSET, length);
        buffers[count] = buffer;
        positions[count] = position;
        lengths[count] = length;
        count++;
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

    /** Most iovecs this array holds. */
    public int capacity() {
        return buffers.length;
    }

    /** Whether no more buffers can be added. */
    public boolean isFull() {
        return count == buffers.length;
    }

    /** A vectored system call: {@code readv}, {@code writev}, {@code recvmsg}, {@code sendmsg} on iovecs. */
    @FunctionalInterface
    public interface VectorCall {
        /** Calls it on {@code count} iovecs at {@code iovAddress}; returns bytes moved or {@code -errno}. */
        long call(int fd, long iovAddress, int count);
    }

    /**
     * Runs {@code call} on these iovecs (read targets when {@code read}, else write sources) and advances the
     * buffers' positions over the bytes moved. Pass a method reference of a static native (no capture, so
     * nothing is allocated).
     *
     * @return bytes moved, 0 at end of stream for a read, or {@code -errno}
     * @throws IllegalArgumentException if the array is empty or holds the other kind of buffers
     */
    public long transfer(int fd, boolean read, VectorCall call) {
        checkUsableFor(read);
        long result = call.call(fd, memory.address(), count);
        Reference.reachabilityFence(this);
        if (result > 0) {
            advance(result);
        }
        return result;
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

    /**
     * Moves the buffers' positions forward over {@code bytes} transferred bytes, in order, from the positions they
     * had when added.
     *
     * @throws IllegalArgumentException if a buffer's limit was lowered below its new position meanwhile
     */
    public void advance(long bytes) {
        long left = bytes;
        for (int i = 0; i < count && left > 0; i++) {
            int step = (int) Math.min(left, lengths[i]);
            buffers[i].position(positions[i] + step);
            left -= step;
        }
    }
}
