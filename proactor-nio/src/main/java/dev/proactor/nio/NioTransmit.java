package dev.proactor.nio;

import dev.proactor.spi.IoRequest;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * File transmission over a non-blocking stream socket (the seed's TransmitFile), one readiness step at a time:
 * the header, then the file region, then the trailer, each continued where the last step stopped when the
 * socket buffer was full. Stateless apart from the request (its header and trailer positions, its file byte
 * count, a mode flag in its engine scratch) and the channel's copy buffer; the caller holds the channel's lock.
 *
 * <p>The file bytes go with {@link FileChannel#transferTo} (zero copy: {@code sendfile} on Linux), which on a
 * non-blocking socket sends what fits and returns 0 when the socket buffer is full. If {@code transferTo} throws
 * (a {@code FileChannel} implementation that does not support it, a file type the JDK cannot send directly), the
 * rest of the request copies through the channel's direct buffer with positional reads and socket writes
 * instead; a socket error then shows up again on the write and ends the request.
 *
 * <p>End of file: {@code transferTo} also returns 0 when the file has no bytes at the position; when it does and
 * the file is not longer than that position, the request fails with {@link EOFException} (the bytes that
 * existed were sent, the trailer is not).
 */
final class NioTransmit {

    /** Size of a channel's copy buffer, used only when {@code transferTo} is not possible. */
    static final int BUFFER_SIZE = 64 * 1024;

    /** {@code engineScratch} value: {@code transferTo} failed for this request, copy through the buffer. */
    private static final long COPYING = 1;

    private NioTransmit() {
    }

    /**
     * Sends as much of the request as the socket takes now.
     *
     * @return {@code true} if everything was sent, {@code false} to wait for the socket to be writable
     * @throws IOException on an I/O error or a file that ends early (the caller records it as the result)
     */
    static boolean step(NioChannel nc, IoRequest r) throws IOException {
        if (!(nc.channel instanceof SocketChannel sc)) {
            throw new IllegalArgumentException("transmitFile needs a stream socket, not " + nc.channel);
        }
        ByteBuffer header = r.header();
        if (header != null && !writeAll(sc, header, r)) {
            return false;
        }
        while (r.fileBytes() < r.count()) {
            long n = r.engineScratch() == COPYING ? copy(nc, sc, r) : transfer(nc, sc, r);
            if (n == 0) {
                return false;
            }
        }
        ByteBuffer trailer = r.trailer();
        return trailer == null || writeAll(sc, trailer, r);
    }

    private static boolean writeAll(SocketChannel sc, ByteBuffer b, IoRequest r) throws IOException {
        while (b.hasRemaining()) {
            int n = sc.write(b);
            if (n == 0) {
                return false;
            }
            r.addBytes(n);
        }
        return true;
    }

    /** One {@code transferTo}; returns the file bytes sent (0: socket full). */
    private static long transfer(NioChannel nc, SocketChannel sc, IoRequest r) throws IOException {
        FileChannel file = r.file();
        long at = r.position() + r.fileBytes();
        long n;
        try {
            n = file.transferTo(at, r.count() - r.fileBytes(), sc);
        } catch (IOException | RuntimeException e) {
            // Not possible here: copy through Java from now on. A genuine socket or file error is not lost: the
            // copy meets it again and fails the request with it.
            r.engineScratch(COPYING);
            nc.transmitBuffer().clear().flip(); // empty
            return copy(nc, sc, r);
        }
        if (n > 0) {
            r.addFileBytes(n);
            return n;
        }
        checkNotEnded(file, at, r);
        return 0;
    }

    /** Sends from the copy buffer, refilling it from the file when empty; returns the file bytes sent. */
    private static long copy(NioChannel nc, SocketChannel sc, IoRequest r) throws IOException {
        ByteBuffer buf = nc.transmitBuffer();
        if (!buf.hasRemaining()) {
            long at = r.position() + r.fileBytes(); // the buffer is empty: everything read was sent
            buf.clear();
            long left = r.count() - r.fileBytes();
            if (left < buf.capacity()) {
                buf.limit((int) left);
            }
            int read = r.file().read(buf, at);
            buf.flip();
            if (read < 0) {
                throw ended(r, at);
            }
        }
        int n = sc.write(buf);
        r.addFileBytes(n);
        return n;
    }

    private static void checkNotEnded(FileChannel file, long at, IoRequest r) throws IOException {
        if (file.size() <= at) {
            throw ended(r, at);
        }
    }

    private static EOFException ended(IoRequest r, long at) {
        return new EOFException("transmitFile: the file ends at byte " + at + ", before position + count = "
                + (r.position() + r.count()) + "; " + r.fileBytes() + " file bytes were sent");
    }
}
