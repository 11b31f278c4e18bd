package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.nio.ByteBuffer;

/**
 * Native addresses of direct {@link ByteBuffer}s, with every check the C side does not make.
 *
 * <p>Each call crosses JNI once ({@code GetDirectBufferAddress}). The hot path of an engine calls
 * {@link #address(ByteBuffer)} once per buffer, keeps the base address, and passes
 * {@code base + position} with {@code remaining()} as length; those stay in range because a buffer's
 * position and limit never leave {@code [0, capacity]}.
 */
public final class DirectBuffers {

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
     * The address a native read may fill: {@code position} of a writable direct buffer; the caller may
     * write {@code remaining()} bytes there.
     *
     * @throws IllegalArgumentException if the buffer is read-only, or as {@link #address(ByteBuffer)}
     */
    public static long readTarget(ByteBuffer destination) {
        if (destination != null && destination.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        return address(destination) + destination.position();
    }

    /**
     * The address a native write may send from: {@code position} of a direct buffer, read-only or not;
     * {@code remaining()} bytes are readable there.
     *
     * @throws IllegalArgumentException as {@link #address(ByteBuffer)}
     */
    public static long writeSource(ByteBuffer source) {
        return address(source) + (source == null ? 0 : source.position());
    }
}
