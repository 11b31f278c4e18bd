package dev.proactor.nio2.files;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The blocking positional transfers of a {@link ProactorFileChannel}: each one or more lane operations the calling
 * thread parks on ({@link BlockingTransfer}). A direct buffer goes to the engine as it is; a heap buffer is copied
 * through a pooled direct buffer ({@link BounceBuffers}) in chunks of at most {@value BounceBuffers#MAX} bytes.
 *
 * <p>Reads: a direct buffer is one engine read (at least one byte, or end of file); a heap buffer is read chunk by
 * chunk until it is full, a chunk comes back short (the end of the file is near) or end of file. Writes: every
 * remaining byte is written (the engines continue partial writes), chunk by chunk for a heap buffer. A chunk is
 * never started after the calling thread was interrupted: the interrupt closes the channel, so the transfer stops
 * with what it moved.
 *
 * <p>Failures: as the JDK's transfer, which is one system call, a transfer that moved bytes before a later chunk
 * (or the rest of a write) failed returns what it moved, and the buffer's position counts exactly that; it throws
 * only when it moved nothing, leaving the buffer as it was. The error comes again on the next call if it lasts.
 *
 * <p>Stateless; called by the thread that blocks.
 */
final class BlockingIo {

    private BlockingIo() {
    }

    /**
     * Reads into {@code dst} (which has space) from file {@code position}; from a {@code stream} (a file without a
     * position, where the engines ignore it) at most one engine read, since another may wait for bytes to come.
     *
     * @return bytes read, or -1 at end of file
     * @throws IOException the error of the first chunk, when nothing was read ({@code dst} is unchanged)
     */
    static int read(FileLanes lanes, ByteBuffer dst, long position, boolean stream) throws IOException {
        if (dst.isDirect()) {
            return (int) once(lanes, true, dst, position);
        }
        int total = 0;
        while (dst.hasRemaining()) {
            ByteBuffer bounce = BounceBuffers.take(dst.remaining());
            int chunk = bounce.remaining();
            long n;
            try {
                n = once(lanes, true, bounce, position + total);
                if (n > 0) {
                    dst.put(bounce.flip());
                    total += (int) n;
                }
            } catch (IOException | RuntimeException e) {
                if (total > 0) {
                    return total; // what an earlier chunk read is in dst: report it, as the JDK would
                }
                throw e;
            } finally {
                BounceBuffers.give(bounce);
            }
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            if (n < chunk || stream || Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return total;
    }

    /**
     * Reads into {@code dsts[offset .. offset+length)} from a stream (a file without a position) with one engine
     * read, as the JDK's {@code readv(2)}: into a bounce buffer of what they have room for (at most
     * {@value BounceBuffers#MAX} bytes), then spread over them in order.
     *
     * @return bytes read (0 if no buffer has room), or -1 at end of stream
     * @throws IOException the read's error ({@code dsts} are unchanged)
     */
    static long scatter(FileLanes lanes, ByteBuffer[] dsts, int offset, int length) throws IOException {
        long room = 0;
        for (int i = offset; i < offset + length; i++) {
            room += dsts[i].remaining();
        }
        if (room == 0) {
            return 0;
        }
        ByteBuffer bounce = BounceBuffers.take((int) Math.min(room, BounceBuffers.MAX));
        try {
            long n = once(lanes, true, bounce, 0);
            if (n > 0) {
                bounce.flip();
                for (int i = offset; i < offset + length && bounce.hasRemaining(); i++) {
                    int part = Math.min(dsts[i].remaining(), bounce.remaining());
                    dsts[i].put(bounce.slice(bounce.position(), part));
                    bounce.position(bounce.position() + part);
                }
            }
            return n;
        } finally {
            BounceBuffers.give(bounce);
        }
    }

    /**
     * Writes every remaining byte of {@code src} at file {@code position}.
     *
     * @return bytes written: all of them, or fewer when writing the rest failed
     * @throws IOException the error, when nothing was written ({@code src} is unchanged)
     */
    static int write(FileLanes lanes, ByteBuffer src, long position) throws IOException {
        if (src.isDirect()) {
            return (int) once(lanes, false, src, position);
        }
        int total = 0;
        while (src.hasRemaining()) {
            ByteBuffer bounce = BounceBuffers.take(src.remaining());
            int chunk = bounce.remaining();
            long n;
            try {
                bounce.put(0, src, src.position(), chunk);
                n = once(lanes, false, bounce, position + total);
                src.position(src.position() + (int) n);
                total += (int) n;
            } catch (IOException | RuntimeException e) {
                if (total > 0) {
                    return total;
                }
                throw e;
            } finally {
                BounceBuffers.give(bounce);
            }
            if (n < chunk) {
                break; // written in part before an error, which the next call meets again
            }
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return total;
    }

    /** One lane operation, waited for. */
    private static long once(FileLanes lanes, boolean read, ByteBuffer buffer, long position) throws IOException {
        BlockingTransfer t = new BlockingTransfer();
        if (read) {
            lanes.read(t, buffer, position);
        } else {
            lanes.write(t, buffer, position);
        }
        return t.await();
    }
}
