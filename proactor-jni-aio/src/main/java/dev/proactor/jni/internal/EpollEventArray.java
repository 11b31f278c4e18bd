package dev.proactor.jni.internal;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A reusable {@code struct epoll_event[]} in native memory that {@code epoll_wait} fills; read the
 * events back with {@link #events(int)} and {@link #data(int)}. Reading allocates nothing. Not thread-safe.
 */
public final class EpollEventArray {

    private final NativeMemory memory;
    private final int capacity;

    /** @param capacity most events one wait returns, {@code >= 1} */
    public EpollEventArray(int capacity) {
        if (capacity <= 0 || capacity > Integer.MAX_VALUE / EpollNative.EVENT_SIZE) {
            throw new IllegalArgumentException("capacity out of range: " + capacity);
        }
        this.capacity = capacity;
        this.memory = NativeMemory.allocate(capacity * EpollNative.EVENT_SIZE);
    }

    /** Most events one wait returns. */
    public int capacity() {
        return capacity;
    }

    /** The address of the first struct. */
    public long address() {
        return memory.address();
    }

    /** The ready-event mask ({@code EPOLLIN}, ...) of event {@code index}. */
    public int events(int index) {
        return struct().getInt(offset(index) + EpollNative.EVENT_EVENTS_OFFSET);
    }

    /** The user data registered with the descriptor of event {@code index}. */
    public long data(int index) {
        return struct().getLong(offset(index) + EpollNative.EVENT_DATA_OFFSET);
    }

    private ByteBuffer struct() {
        return memory.buffer();
    }

    private int offset(int index) {
        return Objects.checkIndex(index, capacity) * EpollNative.EVENT_SIZE;
    }
}
