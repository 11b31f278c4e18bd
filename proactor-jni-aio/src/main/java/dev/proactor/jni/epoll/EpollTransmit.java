package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * File transmission over a non-blocking stream socket (the seed's TransmitFile), one readiness step at a time,
 * with the semantics of the emulated engine's: the header, then {@code count} file bytes from {@code position},
 * then the trailer, each continued where the last step stopped when the socket was full.
 *
 * <p>File bytes go with {@code sendfile(2)} from the engine's duplicate of the file's descriptor (see
 * {@link TransmitSource}), inside the kernel. When there is no descriptor (the {@link FileChannel} is not the
 * JDK's own, e.g. a wrapper) the bytes are copied through the channel's 64 KiB output block with
 * {@link FileChannel#read(ByteBuffer, long)} and {@code write(2)}. When {@code sendfile} fails, the rest is
 * copied too: with {@code pread(2)} if the file cannot be spliced ({@code EINVAL}, {@code ENOSYS}), else with
 * the channel's read, so a genuine error is met again and reported as the JDK reports it. An error fails the
 * request, with the bytes sent before it recorded.
 *
 * <p>End of file: if the file ends before {@code position + count}, the bytes that exist are sent and the
 * request fails with {@link EOFException}; the trailer is not sent. A closed file fails it with
 * {@link ClosedChannelException}.
 *
 * <p>State: the request (header and trailer positions, file byte count, the file mode in its engine scratch)
 * and the channel's {@link TransmitSource}; the caller holds the channel's lock. The file descriptor is released
 * when the request finishes or fails here, and by the engine when it is cancelled or the channel closes.
 */
final class EpollTransmit {

    /** {@code engineScratch}: the file was not needed yet. */
    private static final long NOT_OPENED = 0;
    /** {@code engineScratch}: file bytes go with sendfile. */
    private static final long SENDFILE = 1;
    /** {@code engineScratch}: file bytes are copied with pread on the engine's descriptor. */
    private static final long PREAD = 2;
    /** {@code engineScratch}: file bytes are copied with the channel's positional read. */
    private static final long CHANNEL_READ = 3;

    /** {@link #sendFileBytes} result: the socket is full. */
    private static final long SOCKET_FULL = -1;

    private EpollTransmit() {
    }

    /**
     * Sends as much of the request as the socket takes now.
     *
     * @return {@code true} if everything was sent, {@code false} to wait for the socket to be writable
     * @throws IOException on an I/O error, a closed file or a file that ends early (the caller records it)
     */
    static boolean step(EpollChannel channel, IoRequest request) throws IOException {
        if (channel.kind != EpollChannel.Kind.STREAM) {
            throw new IllegalArgumentException("transmitFile needs a stream socket, not " + channel);
        }
        boolean done;
        try {
            done = run(channel, request);
        } catch (Throwable e) { // an Error too: the file's duplicate must not stay open until the next transmission
            channel.releaseTransmitSource();
            throw e;
        }
        if (done) {
            channel.releaseTransmitSource();
        }
        return done;
    }

    private static boolean run(EpollChannel channel, IoRequest request) throws IOException {
        ByteBuffer header = request.header();
        if (header != null && !sendAll(channel, header, request)) {
            return false;
        }
        if (request.fileBytes() < request.count() && !sendFile(channel, request)) {
            return false;
        }
        ByteBuffer trailer = request.trailer();
        return trailer == null || sendAll(channel, trailer, request);
    }

    // ---------------------------------------------------------------- header and trailer

    /**
     * Writes the buffer's remaining bytes; {@code false} if the socket filled up first. Each write reads the
     * buffer's position and limit once and checks them (DirectBuffers.checkRange): address, length and the new
     * position all come from that one reading.
     */
    private static boolean sendAll(EpollChannel channel, ByteBuffer buffer, IoRequest request) throws IOException {
        while (true) {
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                return true;
            }
            int result = write(channel, buffer, position, limit - position);
            if (Errors.isAgain(result)) {
                return false;
            }
            if (result < 0) {
                throw Errors.newException("write", result);
            }
            buffer.position(position + result);
            request.addBytes(result);
        }
    }

    /**
     * One write of {@code length > 0} bytes of a buffer from {@code position}, a range the caller checked (a heap
     * buffer: up to a block, through the output block).
     */
    private static int write(EpollChannel channel, ByteBuffer buffer, int position, int length) {
        NativeScratch scratch = channel.outputScratch;
        if (buffer.isDirect()) {
            return SocketNative.send(channel.fd, scratch.baseAddress(buffer) + position, length);
        }
        NativeMemory block = scratch.bounce();
        int n = Math.min(length, block.size());
        block.buffer().put(0, buffer, position, n);
        return SocketNative.send(channel.fd, block.address(), n);
    }

    // ---------------------------------------------------------------- file bytes

    /** Sends file bytes until all are sent ({@code true}) or the socket is full ({@code false}). */
    private static boolean sendFile(EpollChannel channel, IoRequest request) throws IOException {
        FileChannel file = request.file();
        if (!file.isOpen()) {
            throw new ClosedChannelException();
        }
        TransmitSource source = channel.transmitSource();
        if (request.engineScratch() == NOT_OPENED) {
            request.engineScratch(source.open(file) ? SENDFILE : CHANNEL_READ);
        }
        while (request.fileBytes() < request.count()) {
            if (sendFileBytes(channel, source, request) == SOCKET_FULL) {
                return false;
            }
        }
        return true;
    }

    /** One system call's worth of file bytes: the bytes sent, 0 after switching mode, or {@link #SOCKET_FULL}. */
    private static long sendFileBytes(EpollChannel channel, TransmitSource source, IoRequest request)
            throws IOException {
        long mode = request.engineScratch();
        if (mode != SENDFILE) {
            return copy(channel, source, request, mode == PREAD);
        }
        long at = request.position() + request.fileBytes();
        long result = FileNative.transferTo(channel.fd, source.fd(), at, request.count() - request.fileBytes());
        if (result > 0) {
            request.addFileBytes(result);
            return result;
        }
        if (result == 0) {
            throw ended(request, at);
        }
        if (Errors.isAgain(result)) {
            return SOCKET_FULL;
        }
        // Not possible here: copy the rest, as the emulated engine does when transferTo fails. With pread on the
        // engine's descriptor when the file cannot be spliced to a socket (EINVAL, ENOSYS); otherwise with the
        // channel's own read, which reports a file problem as the JDK does (a file not open for reading:
        // NonReadableChannelException). A socket error shows up again on the write and ends the request.
        request.engineScratch(result == -ErrnoNative.EINVAL || result == -ErrnoNative.ENOSYS ? PREAD : CHANNEL_READ);
        return 0;
    }

    /** Sends from the copy window, refilling it from the file when empty; the file bytes sent or SOCKET_FULL. */
    private static long copy(EpollChannel channel, TransmitSource source, IoRequest request, boolean pread)
            throws IOException {
        NativeMemory block = channel.outputScratch.bounce();
        if (source.windowEmpty()) {
            long at = request.position() + request.fileBytes(); // empty window: everything read was sent
            int want = (int) Math.min(block.size(), request.count() - request.fileBytes());
            int read = pread ? FileNative.pread(source.fd(), block.address(), want, at)
                    : readChannel(request.file(), source.readView(block), want, at);
            if (read == 0) {
                throw ended(request, at);
            }
            if (read < 0) {
                throw Errors.newException("pread", read);
            }
            source.filled(read);
        }
        int result = SocketNative.send(channel.fd, block.address() + source.windowStart(), source.windowLength());
        if (Errors.isAgain(result)) {
            return SOCKET_FULL;
        }
        if (result < 0) {
            throw Errors.newException("write", result);
        }
        source.sent(result);
        request.addFileBytes(result);
        return result;
    }

    /**
     * Reads up to {@code want} bytes at {@code at} with the channel's own positional read, into the start of the
     * copy block.
     *
     * @return the bytes read, or 0 at the end of the file
     * @throws IOException from the channel, or if it reads nothing before the end of the file
     */
    private static int readChannel(FileChannel file, ByteBuffer view, int want, long at) throws IOException {
        view.clear().limit(want);
        int read = file.read(view, at);
        if (read < 0) {
            return 0;
        }
        if (read == 0) {
            throw new IOException("transmitFile: " + file + " read no bytes at position " + at
                    + " before its end");
        }
        return read;
    }

    private static EOFException ended(IoRequest request, long at) {
        return new EOFException("transmitFile: the file ends at byte " + at + ", before position + count = "
                + (request.position() + request.count()) + "; " + request.fileBytes() + " file bytes were sent");
    }
}
