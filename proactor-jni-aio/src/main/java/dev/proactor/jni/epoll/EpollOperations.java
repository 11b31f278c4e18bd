package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.jni.engine.BounceBlocks;
import dev.proactor.jni.engine.BounceCopies;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.engine.SocketAddresses;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The non-blocking system calls that turn readiness into completion. Each method tries its request once
 * (a write: until done or the socket is full) and says whether it finished, with the result recorded,
 * or must wait for the next edge. Stateless; the caller holds the channel's lock.
 *
 * <p>Direct buffers go to the kernel by address (one buffer: read/write, several: readv/writev); heap
 * and other non-direct buffers go through the channel's bounce block. The direct single-buffer path
 * allocates nothing. Datagrams are in {@link EpollDatagrams}, file transmission in {@link EpollTransmit}.
 */
final class EpollOperations {

    /** {@code engineScratch} of a connect whose connect(2) was issued. */
    private static final long CONNECT_ISSUED = 1;

    private EpollOperations() {
    }

    /** The kinds this engine runs: stream sockets, datagram sockets and file transmission; not files. */
    static final int SUPPORTED = OpKind.STREAM_MASK | OpKind.DATAGRAM_MASK | OpKind.TRANSMIT_FILE.bit();

    /**
     * Whether a kind belongs to the input direction (read, accept, receive) rather than the output one (write,
     * connect, send, transmit).
     */
    static boolean isInput(OpKind kind) {
        return kind.isInput();
    }

    /**
     * Tries the request once, as {@link #tryOnce}, and fails it with whatever it throws: an I/O error, a runtime
     * exception (a misuse the request reports), or an {@link Error} (e.g. no direct memory for a bounce block); the
     * request then counts as finished. For the leader's retries and a start's tries, where nothing may be thrown: a
     * try outside the channel's lock must end its direction's busy mark, and the leader must not leave a request
     * parked after its try threw.
     *
     * @return {@code true} if finished (result or failure recorded), {@code false} to wait for readiness
     */
    static boolean tryOnceOrFail(EpollChannel channel, IoRequest request) {
        try {
            return tryOnce(channel, request);
        } catch (Throwable e) {
            request.fail(e);
            return true;
        }
    }

    /**
     * Tries the request once.
     *
     * @return {@code true} if finished (result recorded), {@code false} to wait for readiness
     * @throws IOException on an I/O error, which the caller records as the result
     */
    static boolean tryOnce(EpollChannel channel, IoRequest request) throws IOException {
        switch (request.kind()) {
            case READ:
                return read(channel, request);
            case WRITE:
                return write(channel, request);
            case ACCEPT:
                return accept(channel, request);
            case CONNECT:
                return connect(channel, request);
            case RECEIVE:
                return EpollDatagrams.receive(channel, request);
            case SEND:
                return EpollDatagrams.send(channel, request);
            case TRANSMIT_FILE:
                return EpollTransmit.step(channel, request);
            default:
                throw new IllegalArgumentException("the epoll engine does not run " + request.kind());
        }
    }

    // ---------------------------------------------------------------- read

    private static boolean read(EpollChannel channel, IoRequest request) throws IOException {
        requireKind(channel, EpollChannel.Kind.STREAM, "read");
        DirectBuffers.checkWritable(request);
        long result;
        long asked;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = channel.inputScratch.baseAddress(buffer);
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                request.complete(0); // no space left (the buffer was changed while pending), as the JDK reads 0
                return true;
            }
            asked = limit - position;
            result = SocketNative.recv(channel.fd, base + position, limit - position);
            if (result > 0) {
                buffer.position(position + (int) result);
            }
        } else if (DirectBuffers.allDirect(request)) {
            // Buffers with no space are skipped (IovecArray): the first IOV_MAX with space take the bytes.
            IovecArray iovecs = channel.inputScratch.iovecs(request.length());
            ByteBuffer[] buffers = request.buffers();
            for (int i = request.offset(), end = i + request.length(); i < end && !iovecs.isFull(); i++) {
                iovecs.addReadTarget(buffers[i]);
            }
            if (iovecs.count() == 0) {
                request.complete(0); // no space left (the buffers were changed while pending)
                return true;
            }
            asked = iovecs.totalLength();
            result = SocketNative.recv(channel.fd, iovecs);
        } else {
            int want = BounceCopies.space(request, NativeScratch.BOUNCE_SIZE);
            if (want == 0) {
                request.complete(0);
                return true;
            }
            asked = want;
            // Through a shared block, copied out with bounds-checked Java copies: a buffer changed meanwhile fails
            // the read with an exception, never a write outside it.
            result = BounceBlocks.receive(channel.fd, request, want, 0);
        }
        // Fewer bytes than asked (or none yet) means the receive queue is empty now; an end of stream or an
        // error is not "drained": every later read must find it again at once.
        boolean drained = Errors.isAgain(result) || (result > 0 && result < asked);
        channel.inputDrained = drained;
        if (Errors.isAgain(result)) {
            return false;
        }
        if (result < 0) {
            throw Errors.newException("read", result);
        }
        request.complete(result == 0 ? -1 : result);
        return true;
    }

    // ---------------------------------------------------------------- write

    private static boolean write(EpollChannel channel, IoRequest request) throws IOException {
        requireKind(channel, EpollChannel.Kind.STREAM, "write");
        // Continue partial writes until everything is out or the socket buffer is full.
        while (request.hasRemaining()) {
            long result;
            if (request.length() == 1 && request.firstBuffer().isDirect()) {
                ByteBuffer buffer = request.firstBuffer();
                long base = channel.outputScratch.baseAddress(buffer);
                int position = buffer.position();
                int limit = buffer.limit();
                DirectBuffers.checkRange(buffer, position, limit);
                if (position == limit) {
                    break; // nothing left after all (the buffer was changed while pending)
                }
                result = SocketNative.send(channel.fd, base + position, limit - position);
                if (result > 0) {
                    buffer.position(position + (int) result);
                }
            } else if (DirectBuffers.allDirect(request)) {
                // Empty buffers are skipped (IovecArray); past IOV_MAX the loop continues with the rest.
                IovecArray iovecs = channel.outputScratch.iovecs(request.length());
                ByteBuffer[] buffers = request.buffers();
                for (int i = request.offset(), end = i + request.length(); i < end && !iovecs.isFull(); i++) {
                    iovecs.addWriteSource(buffers[i]);
                }
                if (iovecs.count() == 0) {
                    break; // nothing left after all (the buffers were changed while pending)
                }
                result = SocketNative.send(channel.fd, iovecs);
            } else {
                result = writeThroughBounce(channel, request);
                if (result == 0) {
                    break; // nothing was left to copy (the buffers were changed while pending)
                }
            }
            if (Errors.isAgain(result)) {
                return false;
            }
            if (result < 0) {
                throw Errors.newException("write", result);
            }
            request.addBytes(result);
        }
        return true;
    }

    /**
     * Copies up to a bounce block of the remaining bytes, writes them, and advances the buffers by what was
     * written. Each buffer's range is checked (DirectBuffers.checkRange) before its bytes are copied, and the copy
     * itself is a bounds-checked Java copy.
     *
     * @return bytes written, {@code -errno}, or 0 if there was nothing to copy
     */
    private static long writeThroughBounce(EpollChannel channel, IoRequest request) {
        int result = BounceBlocks.send(channel.fd, request, 0);
        if (result > 0) {
            BounceCopies.advance(request, result);
        }
        return result;
    }

    // ---------------------------------------------------------------- accept and connect

    private static boolean accept(EpollChannel channel, IoRequest request) throws IOException {
        requireKind(channel, EpollChannel.Kind.SERVER, "accept");
        Sockaddr peer = channel.inputScratch.sockaddr();
        while (true) {
            int result = SocketNative.accept(channel.fd, peer);
            if (result >= 0) {
                request.completeAccept(new AcceptedSocket(result), peer.get());
                return true;
            }
            if (Errors.isAgain(result)) {
                return false;
            }
            // A connection reset while queued concerns that connection only: take the next one.
            if (result != -ErrnoNative.ECONNABORTED) {
                throw Errors.newException("accept4", result);
            }
        }
    }

    private static boolean connect(EpollChannel channel, IoRequest request) throws IOException {
        requireKind(channel, EpollChannel.Kind.STREAM, "connect");
        if (request.engineScratch() != CONNECT_ISSUED) {
            request.engineScratch(CONNECT_ISSUED);
            Sockaddr target = channel.outputScratch.sockaddr().setFor(channel.family,
                    SocketAddresses.inet(request.address()));
            int result = SocketNative.connect(channel.fd, target);
            if (result == -ErrnoNative.EINPROGRESS) {
                return false;
            }
            Errors.check("connect", result);
            request.peer(request.address());
            return true;
        }
        int error = SocketNative.getIntOption(channel.fd, SocketNative.SOL_SOCKET, SocketNative.SO_ERROR);
        Errors.check("getsockopt(SO_ERROR)", error);
        if (error != 0) {
            throw Errors.newException("connect", -error);
        }
        // An edge from before the connection finished (a new socket reports EPOLLOUT|EPOLLHUP) has no error
        // yet and no peer either: keep waiting.
        int connected = SocketNative.peerAddress(channel.fd, channel.outputScratch.sockaddr());
        if (connected == -ErrnoNative.ENOTCONN) {
            return false;
        }
        Errors.check("getpeername", connected);
        request.peer(request.address());
        return true;
    }

    // ---------------------------------------------------------------- checks

    private static void requireKind(EpollChannel channel, EpollChannel.Kind kind, String operation) {
        if (channel.kind != kind) {
            throw new IllegalArgumentException(operation + " needs a "
                    + (kind == EpollChannel.Kind.SERVER ? "listening" : "connected stream") + " socket, not "
                    + channel);
        }
    }
}
