package dev.proactor.jni.engine;

import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import java.nio.ByteBuffer;

/**
 * The Java side of a stream operation on heap buffers, which a native engine passes through a direct bounce block:
 * how much of the request fits in the block, copying a write's bytes into it, copying a read's bytes out of it, and
 * moving the buffers' positions over what a bounced write sent. Every buffer's range is checked as for a native call
 * ({@link DirectBuffers#checkRange}) and every copy is a bounds-checked Java copy, so a buffer that changed under the
 * operation fails it with an exception, never a write outside it. Stateless; the caller owns the request and block.
 */
public final class BounceCopies {

    private BounceCopies() {
    }

    /** The bytes a read through the block asks for: the buffers' space, up to {@code blockSize}. */
    public static int space(IoRequest request, int blockSize) {
        long space = 0;
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end && space < blockSize; i++) {
            ByteBuffer buffer = buffers[i];
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            space += limit - position;
        }
        return (int) Math.min(space, blockSize);
    }

    /**
     * Copies up to a block of the buffers' remaining bytes into {@code bounce}, without moving their positions.
     *
     * @return the bytes copied
     */
    public static int fill(NativeMemory bounce, IoRequest request) {
        ByteBuffer target = bounce.buffer();
        ByteBuffer[] buffers = request.buffers();
        int filled = 0;
        for (int i = request.offset(), end = i + request.length(); i < end && filled < bounce.size(); i++) {
            ByteBuffer source = buffers[i];
            int position = source.position();
            int limit = source.limit();
            DirectBuffers.checkRange(source, position, limit);
            int n = Math.min(limit - position, bounce.size() - filled);
            target.put(filled, source, position, n);
            filled += n;
        }
        return filled;
    }

    /** Copies the first {@code count} bytes of {@code bounce} into the buffers in order, moving their positions. */
    public static void drain(NativeMemory bounce, int count, IoRequest request) {
        drain(bounce.buffer(), 0, count, request);
    }

    /**
     * Copies up to {@code count} bytes of {@code source} from index {@code from} into the buffers in order, moving
     * their positions (the source's position and limit are not used); as many as their space takes.
     *
     * @return the bytes copied
     */
    public static int drain(ByteBuffer source, int from, int count, IoRequest request) {
        int copied = 0;
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end && copied < count; i++) {
            ByteBuffer destination = buffers[i];
            int position = destination.position();
            int n = Math.min(destination.limit() - position, count - copied);
            if (n > 0) {
                destination.put(position, source, from + copied, n);
                destination.position(position + n);
                copied += n;
            }
        }
        return copied;
    }

    /** Moves the buffers' positions over {@code bytes} written from the block. */
    public static void advance(IoRequest request, long bytes) {
        long left = bytes;
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end && left > 0; i++) {
            ByteBuffer buffer = buffers[i];
            int position = buffer.position();
            int n = (int) Math.min(Math.max(buffer.limit() - position, 0), left);
            buffer.position(position + n);
            left -= n;
        }
    }
}
