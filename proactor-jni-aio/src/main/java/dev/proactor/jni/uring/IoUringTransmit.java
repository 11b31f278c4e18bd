package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * File transmission (the seed's TransmitFile) as read + send: header, file bytes, trailer, each sent with
 * {@code IORING_OP_SEND} through the ring and continued after partial sends. File bytes are read into the
 * direction's 64 KiB block with {@code pread(2)} on the engine's duplicate of the file's descriptor (a
 * {@link FileChannel} that is not the JDK's is read through its own positional read), synchronously, by the
 * thread that starts the transmission or handles the previous send's completion: page-cache reads of at most one
 * block, in exchange for no pipe and no second request per piece (a splice pair would need both).
 *
 * <p>If the file ends before {@code position + count}, the bytes that exist are sent and the request fails with
 * {@link EOFException}; the trailer is not sent. The duplicate descriptor is closed when the transmission ends,
 * fails (here, or by {@link IoUringOps#abandon} when a send's SQE cannot be written), or its channel closes. Each
 * step describes its send's SQE for the engine's starter to write. The caller holds the channel's monitor.
 */
final class IoUringTransmit {

    private static final int HEADER = 0;
    private static final int FILE = 1;
    private static final int TRAILER = 2;

    /** The transmission state of an output direction. */
    static final class State {
        int phase;
        /** The engine's duplicate of the file's descriptor, or -1 (read through the channel). */
        int fd = -1;
        /** File bytes in the block not yet sent: {@code [start, end)}. */
        int start;
        int end;
        /** Which buffer the send in flight came from: header, file block or trailer. */
        ByteBuffer sending;
        ByteBuffer readView;
    }

    private IoUringTransmit() {
    }

    /**
     * Describes the transmission's first send.
     *
     * @return the SQE to write, or null if there was nothing to send (finished)
     */
    static IoUringSqe start(IoUringDirection dir, IoRequest request) throws IOException {
        State state = dir.transmit;
        release(state);
        state.phase = HEADER;
        state.start = 0;
        state.end = 0;
        FileChannel file = request.file();
        int original = FileNative.fdOf(file);
        if (original == -ErrnoNative.EBADF) {
            throw new ClosedChannelException();
        }
        if (original >= 0) {
            int duplicate = FileNative.duplicate(original);
            if (duplicate >= 0) {
                state.fd = duplicate;
                if (!file.isOpen()) {
                    release(state);
                    throw new ClosedChannelException();
                }
            }
        }
        return step(dir, request);
    }

    /**
     * Records a send's result and describes the next send.
     *
     * @return the next SQE to write, or null if the transmission finished
     */
    static IoUringSqe complete(IoUringDirection dir, IoRequest request, int result) throws IOException {
        State state = dir.transmit;
        try {
            if (result < 0) {
                throw Errors.newException("send", result);
            }
            if (state.phase == FILE) {
                state.start += result;
                request.addFileBytes(result);
            } else {
                if (dir.mode == IoUringOps.MODE_SINGLE) {
                    state.sending.position(dir.startPosition + result);
                } else {
                    state.sending.position(state.sending.position() + result);
                }
                request.addBytes(result);
            }
            if (!dir.channel.usable() || dir.cancelReason != null) {
                throw new AsynchronousCloseException(); // replaced by the cancel reason when there is one
            }
            return step(dir, request);
        } catch (Throwable e) { // an Error too: the duplicate must not stay open until the channel closes
            release(state);
            throw e;
        }
    }

    /** Describes the next send; null when everything was sent. */
    private static IoUringSqe step(IoUringDirection dir, IoRequest request) throws IOException {
        State state = dir.transmit;
        try {
            if (state.phase == HEADER) {
                if (request.header() != null && request.header().hasRemaining()) {
                    return sendBuffer(dir, request.header());
                }
                state.phase = FILE;
            }
            if (state.phase == FILE) {
                if (state.start == state.end) {
                    long left = request.count() - request.fileBytes();
                    if (left > 0) {
                        fill(dir, request, (int) Math.min(left, NativeScratch.BOUNCE_SIZE));
                    }
                }
                if (state.start < state.end) {
                    NativeMemory block = dir.scratch.bounce();
                    dir.mode = IoUringOps.MODE_BOUNCE;
                    return dir.sqe.describe(IoUringNative.OP_SEND, 0, dir.channel.fd,
                            block.address() + state.start, state.end - state.start, 0, IoUringNative.MSG_NOSIGNAL);
                }
                state.phase = TRAILER;
            }
            if (request.trailer() != null && request.trailer().hasRemaining()) {
                return sendBuffer(dir, request.trailer());
            }
            release(state);
            return null;
        } catch (Throwable e) { // an Error too: the duplicate must not stay open until the channel closes
            release(state);
            throw e;
        }
    }

    /** Reads the next {@code want} file bytes into the block; EOF before the count fails the transmission. */
    private static void fill(IoUringDirection dir, IoRequest request, int want) throws IOException {
        State state = dir.transmit;
        NativeMemory block = dir.scratch.bounce();
        long at = request.position() + request.fileBytes();
        int n;
        if (state.fd >= 0) {
            n = FileNative.pread(state.fd, block.address(), want, at);
            if (n < 0) {
                throw Errors.newException("pread", n);
            }
        } else {
            if (state.readView == null) {
                state.readView = block.buffer().duplicate();
            }
            ByteBuffer view = state.readView;
            view.clear().limit(want);
            n = Math.max(request.file().read(view, at), 0);
        }
        if (n == 0) {
            throw new EOFException("the file ended at " + at + ", before the " + request.count()
                    + " bytes to transmit from " + request.position());
        }
        state.start = 0;
        state.end = n;
    }

    /** Sends the remaining bytes of a header or trailer (through the block if it is a heap buffer). */
    private static IoUringSqe sendBuffer(IoUringDirection dir, ByteBuffer buffer) {
        State state = dir.transmit;
        state.sending = buffer;
        int position = buffer.position();
        int limit = buffer.limit();
        DirectBuffers.checkRange(buffer, position, limit);
        if (buffer.isDirect()) {
            dir.mode = IoUringOps.MODE_SINGLE;
            dir.startPosition = position;
            return dir.sqe.describe(IoUringNative.OP_SEND, 0, dir.channel.fd,
                    dir.scratch.baseAddress(buffer) + position, limit - position, 0, IoUringNative.MSG_NOSIGNAL);
        }
        NativeMemory block = dir.scratch.bounce();
        int n = Math.min(limit - position, block.size());
        block.buffer().put(0, buffer, position, n);
        dir.mode = IoUringOps.MODE_BOUNCE;
        return dir.sqe.describe(IoUringNative.OP_SEND, 0, dir.channel.fd, block.address(), n, 0,
                IoUringNative.MSG_NOSIGNAL);
    }

    /** Closes the duplicate descriptor, if any; idempotent. Monitor held. */
    static void release(State state) {
        if (state.fd >= 0) {
            IoNative.close(state.fd);
            state.fd = -1;
        }
    }
}
