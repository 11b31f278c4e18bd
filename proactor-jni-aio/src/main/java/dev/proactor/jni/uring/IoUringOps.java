package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.BounceCopies;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.NativeScratch;
import dev.proactor.jni.internal.SocketAddresses;
import dev.proactor.jni.internal.DirectIoAlignment;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;

/**
 * Turns requests into SQEs and CQE results back into request results, one step at a time. A step writes one SQE
 * whose user data is the direction's slot; its completion either finishes the request or writes the next SQE (a
 * partial write, an accept whose connection was aborted, the next piece of a transmission). Stateless; the caller
 * holds the channel's monitor.
 *
 * <p>Mapping: stream read {@code RECV} (with {@code IORING_RECVSEND_POLL_FIRST} when enabled: the socket is
 * usually empty when a read is started, so polling first saves a failed attempt), scattering read {@code READV},
 * stream write {@code SEND} with {@code MSG_NOSIGNAL}, gathering write {@code WRITEV}, accept {@code ACCEPT},
 * connect {@code CONNECT}, datagrams {@code RECVMSG}/{@code SENDMSG} (after a try at start:
 * {@link IoUringDatagramOps}), files {@code READ}/{@code WRITE} (and the vectored forms) at the position. Heap buffers go through the direction's 64 KiB block. Direct single-buffer paths
 * allocate nothing. Files with {@code O_DIRECT} take direct buffers only, each transfer checked against the file's
 * alignment before its SQE is written. Accept is in {@link IoUringAcceptOps}, datagrams in
 * {@link IoUringDatagramOps}, file transmission in {@link IoUringTransmit}, the bounce block's copies in
 * {@link BounceCopies} (shared with the epoll engine).
 */
final class IoUringOps {

    static final int MODE_SINGLE = 1;
    static final int MODE_VECTOR = 2;
    static final int MODE_BOUNCE = 3;

    /** The kinds this engine runs. */
    static final int SUPPORTED = OpKind.STREAM_MASK | OpKind.DATAGRAM_MASK | OpKind.FILE_MASK
            | OpKind.TRANSMIT_FILE.bit();

    private IoUringOps() {
    }

    /**
     * Writes the SQE of the request's first step.
     *
     * @return true if an SQE is in the ring, false if the request finished without one (result recorded)
     * @throws IOException on an error the caller records as the result
     */
    static boolean start(IoUringStarter starter, IoUringDirection dir, IoRequest request) throws IOException {
        IoUringChannel channel = dir.channel;
        switch (request.kind()) {
            case READ:
                require(channel, IoUringChannel.Kind.STREAM, "read");
                checkWritable(request);
                return submitRead(starter, dir, request, false);
            case READ_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file read");
                if (!channel.readable) {
                    throw new NonReadableChannelException();
                }
                checkWritable(request);
                return submitRead(starter, dir, request, true);
            case WRITE:
                require(channel, IoUringChannel.Kind.STREAM, "write");
                return submitWrite(starter, dir, request, false);
            case WRITE_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file write");
                if (!channel.writable) {
                    throw new NonWritableChannelException();
                }
                return submitWrite(starter, dir, request, true);
            case ACCEPT:
                require(channel, IoUringChannel.Kind.SERVER, "accept");
                return IoUringAcceptOps.start(starter, dir, request);
            case CONNECT:
                require(channel, IoUringChannel.Kind.STREAM, "connect");
                Sockaddr target = dir.scratch.sockaddr().setFor(channel.family,
                        SocketAddresses.inet(request.address()));
                return starter.prepare(dir, IoUringNative.OP_CONNECT, 0, channel.fd, target.address(), 0,
                        target.length(), 0);
            case RECEIVE:
                require(channel, IoUringChannel.Kind.DATAGRAM, "receive");
                return IoUringDatagramOps.submitReceive(starter, dir, request);
            case SEND:
                require(channel, IoUringChannel.Kind.DATAGRAM, "send");
                return IoUringDatagramOps.submitSend(starter, dir, request);
            case TRANSMIT_FILE:
                require(channel, IoUringChannel.Kind.STREAM, "transmitFile");
                return IoUringTransmit.start(starter, dir, request);
            default:
                throw new IllegalArgumentException("the io_uring engine does not run " + request.kind());
        }
    }

    /**
     * Records the result of the request's SQE, and writes the next one if the request goes on.
     *
     * @return true if the request finished (result recorded), false if a new SQE is in the ring
     * @throws IOException on an error the caller records as the result
     */
    static boolean complete(IoUringStarter starter, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        switch (request.kind()) {
            case READ:
            case READ_FILE:
                return completeRead(starter, dir, request, result);
            case WRITE:
            case WRITE_FILE:
                return completeWrite(starter, dir, request, result);
            case ACCEPT:
                return IoUringAcceptOps.complete(starter, dir, request, result);
            case CONNECT:
                if (result < 0) {
                    throw Errors.newException("connect", result);
                }
                request.peer(request.address());
                return true;
            case RECEIVE:
                return IoUringDatagramOps.completeReceive(dir, request, result);
            case SEND:
                return IoUringDatagramOps.completeSend(dir, request, result);
            case TRANSMIT_FILE:
                return IoUringTransmit.complete(starter, dir, request, result);
            default:
                throw new IllegalStateException("unexpected completion of " + request.kind());
        }
    }

    // ---------------------------------------------------------------- reads

    private static boolean submitRead(IoUringStarter starter, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.scratch.baseAddress(buffer);
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                request.complete(0);
                return false;
            }
            dir.mode = MODE_SINGLE;
            dir.startPosition = position;
            if (file) {
                checkDirect(channel, base + position, limit - position, offset);
                return starter.prepare(dir, IoUringNative.OP_READ, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            dir.asked = limit - position;
            if (tryRead(starter, dir, request)) {
                int result = SocketNative.recvfrom(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    return !completeRead(starter, dir, request, result);
                }
            }
            return starter.prepare(dir, IoUringNative.OP_RECV, starter.recvPriority(), channel.fd, base + position,
                    limit - position, 0, 0);
        }
        if (allDirect(request)) {
            IovecArray iovecs = dir.scratch.iovecs(request.length());
            ByteBuffer[] buffers = request.buffers();
            for (int i = request.offset(), end = i + request.length(); i < end && !iovecs.isFull(); i++) {
                if (file) {
                    checkDirect(channel, buffers[i], offset);
                }
                iovecs.addReadTarget(buffers[i]);
            }
            if (iovecs.count() == 0) {
                request.complete(0);
                return false;
            }
            dir.mode = MODE_VECTOR;
            if (!file) {
                dir.asked = iovecs.totalLength();
                if (tryRead(starter, dir, request)) {
                    long result = SocketNative.recvIov(channel.fd, iovecs.address(), iovecs.count(),
                            IoUringNative.MSG_DONTWAIT);
                    if (!Errors.isAgain(result)) {
                        return !completeRead(starter, dir, request, (int) result);
                    }
                }
            }
            return starter.prepare(dir, IoUringNative.OP_READV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (file) {
            refuseHeapBuffer(channel);
        }
        int want = BounceCopies.space(request, NativeScratch.BOUNCE_SIZE);
        if (want == 0) {
            request.complete(0);
            return false;
        }
        dir.mode = MODE_BOUNCE;
        dir.staged = want;
        NativeMemory bounce = dir.scratch.bounce();
        if (file) {
            return starter.prepare(dir, IoUringNative.OP_READ, 0, channel.fd, bounce.address(), want, offset, 0);
        }
        dir.asked = want;
        if (tryRead(starter, dir, request)) {
            int result = SocketNative.recvfrom(channel.fd, bounce.address(), want, IoUringNative.MSG_DONTWAIT, null);
            if (!Errors.isAgain(result)) {
                return !completeRead(starter, dir, request, result);
            }
        }
        return starter.prepare(dir, IoUringNative.OP_RECV, starter.recvPriority(), channel.fd, bounce.address(), want,
                0, 0);
    }

    /**
     * Whether a stream read is tried on the socket at start, whatever its buffers: with {@code tryFirst}, unless the
     * last read drained the socket with no reap since (see {@link IoUringDirection#drainedAtReap}).
     */
    private static boolean tryRead(IoUringStarter starter, IoUringDirection dir, IoRequest request) {
        return request.bytes() == 0 && dir.drainedAtReap != starter.tryFirst().reaps()
                && starter.tryFirst().tryAtStart();
    }

    private static boolean completeRead(IoUringStarter starter, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        if (request.kind() == OpKind.READ) {
            boolean drained = result > 0 && result < dir.asked;
            dir.drainedAtReap = drained ? starter.tryFirst().reaps() : -1;
        }
        if (result < 0) {
            throw Errors.newException(request.kind() == OpKind.READ_FILE ? "read" : "recv", result);
        }
        if (result == 0) {
            request.complete(-1);
            return true;
        }
        switch (dir.mode) {
            case MODE_SINGLE:
                ByteBuffer buffer = request.firstBuffer();
                buffer.position(dir.startPosition + result);
                break;
            case MODE_VECTOR:
                dir.scratch.currentIovecs().advance(result);
                break;
            default:
                BounceCopies.drain(dir.scratch.bounce(), result, request);
                break;
        }
        request.complete(result);
        return true;
    }

    /**
     * On an {@code O_DIRECT} file: throws {@link IllegalArgumentException} naming the alignment when a transfer of
     * {@code length} bytes at native {@code address} and file {@code offset} breaks it, before the kernel sees it
     * (where it would fail with a bare {@code EINVAL}).
     */
    private static void checkDirect(IoUringChannel channel, long address, long length, long offset) {
        DirectIoAlignment alignment = channel.alignment;
        if (alignment != null) {
            String violation = alignment.violation(address, length, offset);
            if (violation != null) {
                throw new IllegalArgumentException(alignment.message(violation));
            }
        }
    }

    /** As {@link #checkDirect(IoUringChannel, long, long, long)} for one buffer of a vectored transfer. */
    private static void checkDirect(IoUringChannel channel, ByteBuffer buffer, long offset) {
        if (channel.alignment != null && buffer.hasRemaining()) {
            checkDirect(channel, DirectBuffers.address(buffer) + buffer.position(), buffer.remaining(), offset);
        }
    }

    /** On an {@code O_DIRECT} file a heap buffer cannot be used: the bounce block is not aligned for it. */
    private static void refuseHeapBuffer(IoUringChannel channel) {
        DirectIoAlignment alignment = channel.alignment;
        if (alignment != null) {
            throw new IllegalArgumentException(alignment.message("a heap buffer has no stable address;"
                    + " O_DIRECT needs a direct one"));
        }
    }

    // ---------------------------------------------------------------- writes

    private static boolean submitWrite(IoUringStarter starter, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() + request.bytes() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.scratch.baseAddress(buffer);
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                return false; // nothing (left) to write
            }
            dir.mode = MODE_SINGLE;
            dir.startPosition = position;
            if (file) {
                checkDirect(channel, base + position, limit - position, offset);
                return starter.prepare(dir, IoUringNative.OP_WRITE, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            int ioprio = 0;
            if (tryWrite(starter, request)) {
                int result = SocketNative.sendto(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    return !completeWrite(starter, dir, request, result);
                }
                ioprio = starter.recvPriority(); // the socket is full: wait for room before trying
            }
            return starter.prepare(dir, IoUringNative.OP_SEND, ioprio, channel.fd, base + position, limit - position,
                    0, IoUringNative.MSG_NOSIGNAL);
        }
        if (allDirect(request)) {
            IovecArray iovecs = dir.scratch.iovecs(request.length());
            ByteBuffer[] buffers = request.buffers();
            for (int i = request.offset(), end = i + request.length(); i < end && !iovecs.isFull(); i++) {
                if (file) {
                    checkDirect(channel, buffers[i], offset);
                }
                iovecs.addWriteSource(buffers[i]);
            }
            if (iovecs.count() == 0) {
                return false;
            }
            dir.mode = MODE_VECTOR;
            if (!file && tryWrite(starter, request)) {
                long result = SocketNative.sendIov(channel.fd, iovecs.address(), iovecs.count(),
                        IoUringNative.MSG_DONTWAIT);
                if (!Errors.isAgain(result)) {
                    return !completeWrite(starter, dir, request, (int) result);
                }
            }
            return starter.prepare(dir, IoUringNative.OP_WRITEV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (file) {
            refuseHeapBuffer(channel);
        }
        int filled = BounceCopies.fill(dir.scratch.bounce(), request);
        dir.staged = filled;
        if (filled == 0) {
            return false;
        }
        dir.mode = MODE_BOUNCE;
        NativeMemory bounce = dir.scratch.bounce();
        if (file) {
            return starter.prepare(dir, IoUringNative.OP_WRITE, 0, channel.fd, bounce.address(), filled, offset, 0);
        }
        int ioprio = 0;
        if (tryWrite(starter, request)) {
            int result = SocketNative.sendto(channel.fd, bounce.address(), filled, IoUringNative.MSG_DONTWAIT, null);
            if (!Errors.isAgain(result)) {
                return !completeWrite(starter, dir, request, result);
            }
            ioprio = starter.recvPriority(); // the socket is full: wait for room before trying
        }
        return starter.prepare(dir, IoUringNative.OP_SEND, ioprio, channel.fd, bounce.address(), filled, 0,
                IoUringNative.MSG_NOSIGNAL);
    }

    /**
     * Whether a stream write is tried on the socket at start, whatever its buffers: with {@code tryFirst}, the
     * first time only (what remains after a partial write waits for room in the ring).
     */
    private static boolean tryWrite(IoUringStarter starter, IoRequest request) {
        return request.bytes() == 0 && starter.tryFirst().tryAtStart();
    }

    private static boolean completeWrite(IoUringStarter starter, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        boolean file = request.kind() == OpKind.WRITE_FILE;
        if (Errors.isAgain(result) && !file) {
            result = 0; // the socket is full (a first try at start): the rest goes to the ring below
        }
        if (result < 0) {
            throw Errors.newException(file ? "write" : "send", result);
        }
        switch (dir.mode) {
            case MODE_SINGLE:
                request.firstBuffer().position(dir.startPosition + result);
                break;
            case MODE_VECTOR:
                dir.scratch.currentIovecs().advance(result);
                break;
            default:
                BounceCopies.advance(request, result);
                break;
        }
        request.addBytes(result);
        if (!request.hasRemaining()) {
            return true;
        }
        if (!dir.channel.usable() || dir.cancelReason != null) {
            throw new AsynchronousCloseException(); // replaced by the cancel reason when there is one
        }
        return !submitWrite(starter, dir, request, file);
    }

    // ---------------------------------------------------------------- checks

    private static void require(IoUringChannel channel, IoUringChannel.Kind kind, String operation) {
        if (channel.kind != kind) {
            throw new IllegalArgumentException(operation + " needs a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " channel, not " + channel);
        }
    }

    private static void checkWritable(IoRequest request) {
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end; i++) {
            if (buffers[i].isReadOnly()) {
                throw new IllegalArgumentException("cannot read into a read-only buffer");
            }
        }
    }

    private static boolean allDirect(IoRequest request) {
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end; i++) {
            if (!buffers[i].isDirect()) {
                return false;
            }
        }
        return true;
    }
}
