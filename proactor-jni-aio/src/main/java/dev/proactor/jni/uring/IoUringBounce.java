package dev.proactor.jni.uring;

import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import java.nio.ByteBuffer;

/**
 * The direction's 64 KiB bounce block for stream and file reads and writes of heap buffers, for {@link IoUringOps}:
 * how much of a request fits in it, staging a write's bytes into it, copying a read's bytes out of it, and moving the
 * buffers' positions past what a bounced write sent. Stateless; the caller holds the channel's monitor.
 */
final class IoUringBounce {

    private IoUringBounce() {
    }

    static int bounceSpace(IoRequest request, int blockSize) {
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

    /** Copies up to a block of the remaining bytes into the bounce block (Java-checked copies). */
    static int stage(IoUringDirection dir, IoRequest request) {
        NativeMemory bounce = dir.bounce();
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
        dir.staged = filled;
        return filled;
    }

    static void copyFromBounce(IoUringDirection dir, IoRequest request, int result) {
        ByteBuffer source = dir.bounce().buffer();
        int copied = 0;
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end && copied < result; i++) {
            ByteBuffer destination = buffers[i];
            int position = destination.position();
            int n = Math.min(destination.limit() - position, result - copied);
            if (n > 0) {
                destination.put(position, source, copied, n);
                destination.position(position + n);
                copied += n;
            }
        }
    }

    static void advance(IoRequest request, long bytes) {
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
