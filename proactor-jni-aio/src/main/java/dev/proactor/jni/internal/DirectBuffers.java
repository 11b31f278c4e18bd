package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import dev.proactor.spi.IoRequest;
import java.nio.ByteBuffer;

/**
 * Native addresses of direct {@link ByteBuffer}s, with every check the C side does not make.
 *
 * <p>Each address call crosses JNI once ({@code GetDirectBufferAddress}). The hot path of an engine calls
 * {@link #address(ByteBuffer)} once per buffer and keeps the base address.
 *
 * <p><b>Ranges.</b> Before each native call the caller reads the buffer's {@code position()} and {@code limit()}
 * once each, passes {@code base + position} and {@code limit - position}, and checks that pair with
 * {@link #checkRange(ByteBuffer, int, int)}. Reading them again for the length (as {@code remaining()} does)
 * would be wrong: a buffer repositioned by another thread meanwhile (a misuse, but a common one) could then give
 * an address from one state and a length from another, and the kernel would write past the buffer's capacity.
 * The position and limit fields are plain, so two reads may even see a mix of two states; the check rejects any
 * pair outside {@code 0 <= position <= limit <= capacity}. A misuse is an exception, never a crash.
 *
 * <p><b>Freed memory.</b> A direct buffer can outlive its memory: one made by
 * {@code MemorySegment.asByteBuffer()} over a {@code java.lang.foreign.Arena} that was closed (JDK 22 and later).
 * Every JDK accessor of such a buffer throws {@link IllegalStateException}, but {@code GetDirectBufferAddress}
 * still returns the old address. {@link #checkRange} therefore reads one byte of the range through the JDK,
 * which fails for such a buffer. What it cannot close is the race with an arena closed by another thread after
 * that read and before the system call ends: the kernel may then write to memory already freed. The JDK's own
 * channels keep the arena open during the call through an internal API this library cannot use; a buffer of
 * a shared arena must not be closed while an operation on it is pending.
 */
public final class DirectBuffers {

    /** The message of a read into a read-only buffer, one request's or one call's. */
    private static final String READ_ONLY = "cannot read into a read-only buffer";

    static {
        NativeLibrary.ensureAvailability();
    }

    private DirectBuffers() {
    }

    /**
     * The base address (index 0) of a direct buffer.
     *
     * @throws IllegalArgumentException if the buffer is null, a heap buffer, or has no native address
     */
    public static long address(ByteBuffer buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("native I/O needs a direct ByteBuffer, got a heap buffer");
        }
        long address = BufferNative.address(buffer);
        if (address == 0) {
            throw new IllegalArgumentException("the direct buffer has no native address: " + buffer);
        }
        return address;
    }

    /**
     * Checks a range about to be handed to native code: {@code position} and {@code limit} of {@code buffer}, each
     * read once by the caller, which then passes {@code base + position} and {@code limit - position} and nothing
     * read from the buffer later. Also reads the range's first byte through the JDK, so a buffer whose memory was
     * freed is refused (see the class documentation). Call it under the lock that orders the buffer's use, right
     * before the native call. Allocates nothing.
     *
     * @throws IllegalStateException if not {@code 0 <= position <= limit <= capacity} (the buffer was changed by
     *     another thread while it was being used), or if the buffer's memory cannot be accessed any more
     */
    public static void checkRange(ByteBuffer buffer, int position, int limit) {
        if (position < 0 || position > limit || limit > buffer.capacity()) {
            throw new IllegalStateException("buffer position " + position + " and limit " + limit + " are not within"
                    + " 0 <= position <= limit <= capacity " + buffer.capacity()
                    + ": the buffer was changed by another thread while an operation was using it");
        }
        if (position < limit) {
            try {
                buffer.get(position);
            } catch (RuntimeException e) {
                // IllegalStateException for a closed arena, WrongThreadException for a confined one, an index
                // exception for a limit lowered since the caller read it: in every case the range is not usable.
                throw new IllegalStateException("the buffer's memory cannot be used (freed with its"
                        + " java.lang.foreign Arena, or the buffer changed meanwhile): " + e, e);
            }
        }
    }

    /**
     * Checks the destination of a datagram receive ({@link #checkRange} on {@code position} and {@code limit}, each
     * read once by the caller) and returns its room: a datagram is received whole or truncated, so the buffer must
     * be writable and have space.
     *
     * @return {@code limit - position}, at least 1
     * @throws IllegalArgumentException if the buffer is read-only or full
     * @throws IllegalStateException    as {@link #checkRange}
     */
    public static int receiveRoom(ByteBuffer destination, int position, int limit) {
        checkRange(destination, position, limit);
        int room = limit - position;
        if (destination.isReadOnly() || room == 0) {
            throw new IllegalArgumentException("receive needs a writable buffer with space remaining");
        }
        return room;
    }

    /**
     * The base address (index 0) of a writable direct buffer, for a native call that fills it.
     *
     * @throws IllegalArgumentException if the buffer is read-only, or as {@link #address(ByteBuffer)}
     */
    public static long writableAddress(ByteBuffer destination) {
        if (destination != null && destination.isReadOnly()) {
            throw new IllegalArgumentException(READ_ONLY);
        }
        return address(destination);
    }

    /**
     * Checks that every buffer of a read request can be read into, before any of them is handed to the kernel or
     * the bounce block. Any thread; reads only each buffer's read-only flag, which never changes.
     *
     * @throws IllegalArgumentException if one of them is read-only
     */
    public static void checkWritable(IoRequest request) {
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end; i++) {
            if (buffers[i].isReadOnly()) {
                throw new IllegalArgumentException(READ_ONLY);
            }
        }
    }

    /**
     * Whether every buffer of the request is direct, so the engine hands their memory to the kernel itself; else
     * they go through a bounce block. Any thread; allocates nothing.
     */
    public static boolean allDirect(IoRequest request) {
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end; i++) {
            if (!buffers[i].isDirect()) {
                return false;
            }
        }
        return true;
    }
}
