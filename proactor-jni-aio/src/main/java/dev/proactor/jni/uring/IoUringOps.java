package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.DirectIoAlignment;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;

/**
 * Turns requests into SQEs and CQE results back into request results, one step at a time. A step writes one SQE
 * whose user data is the direction's slot; its completion either finishes the request or writes the next SQE (a
 * partial write, an accept whose connection was aborted, the next piece of a transmission). Stateless; the caller
 * holds the channel's monitor.
 *
 * <p>Mapping: stream read {@code RECV} (with {@code IORING_RECVSEND_POLL_FIRST} when enabled: the socket is
 * usually empty when a read is started, so polling first saves a failed attempt), scattering read {@code READV},
 * stream write {@code SEND} with {@code MSG_NOSIGNAL}, gathering write {@code WRITEV}, accept {@code ACCEPT},
 * connect {@code CONNECT}, datagrams {@code RECVMSG}/{@code SENDMSG}, files {@code READ}/{@code WRITE} (and the
 * vectored forms) at the position. Heap buffers go through the direction's 64 KiB block. Direct single-buffer paths
 * allocate nothing. Files with {@code O_DIRECT} take direct buffers only, each transfer checked against the file's
 * alignment before its SQE is written.
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
    static boolean start(IoUringEngine engine, IoUringDirection dir, IoRequest request) throws IOException {
        IoUringChannel channel = dir.channel;
        switch (request.kind()) {
            case READ:
                require(channel, IoUringChannel.Kind.STREAM, "read");
                checkWritable(request);
                return submitRead(engine, dir, request, false);
            case READ_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file read");
                if (!channel.readable) {
                    throw new NonReadableChannelException();
                }
                checkWritable(request);
                return submitRead(engine, dir, request, true);
            case WRITE:
                require(channel, IoUringChannel.Kind.STREAM, "write");
                return submitWrite(engine, dir, request, false);
            case WRITE_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file write");
                if (!channel.writable) {
                    throw new NonWritableChannelException();
                }
                return submitWrite(engine, dir, request, true);
            case ACCEPT:
                require(channel, IoUringChannel.Kind.SERVER, "accept");
                if (tryAccept(engine, dir) && acceptNow(dir, request)) {
                    return false;
                }
                return submitAccept(engine, dir);
            case CONNECT:
                require(channel, IoUringChannel.Kind.STREAM, "connect");
                Sockaddr target = dir.sockaddr().setFor(channel.family, inet(request.address()));
                return engine.prepare(dir, IoUringNative.OP_CONNECT, 0, channel.fd, target.address(), 0,
                        target.length(), 0);
            case RECEIVE:
                require(channel, IoUringChannel.Kind.DATAGRAM, "receive");
                return submitReceive(engine, dir, request);
            case SEND:
                require(channel, IoUringChannel.Kind.DATAGRAM, "send");
                return submitSend(engine, dir, request);
            case TRANSMIT_FILE:
                require(channel, IoUringChannel.Kind.STREAM, "transmitFile");
                return IoUringTransmit.start(engine, dir, request);
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
    static boolean complete(IoUringEngine engine, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        switch (request.kind()) {
            case READ:
            case READ_FILE:
                return completeRead(dir, request, result);
            case WRITE:
            case WRITE_FILE:
                return completeWrite(engine, dir, request, result);
            case ACCEPT:
                if (result >= 0) {
                    request.completeAccept(new IoUringAccepted(result), dir.sockaddr().get());
                    return true;
                }
                if (result == -ErrnoNative.ECONNABORTED && dir.channel.usable() && dir.cancelReason == null) {
                    return !submitAccept(engine, dir); // that connection is gone: take the next one
                }
                throw Errors.newException("accept", result);
            case CONNECT:
                if (result < 0) {
                    throw Errors.newException("connect", result);
                }
                request.peer(request.address());
                return true;
            case RECEIVE:
                return completeReceive(dir, request, result);
            case SEND:
                return completeSend(dir, request, result);
            case TRANSMIT_FILE:
                return IoUringTransmit.complete(engine, dir, request, result);
            default:
                throw new IllegalStateException("unexpected completion of " + request.kind());
        }
    }

    // ---------------------------------------------------------------- reads

    private static boolean submitRead(IoUringEngine engine, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.baseAddress(buffer);
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
                return engine.prepare(dir, IoUringNative.OP_READ, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            dir.asked = limit - position;
            if (tryRead(engine, dir, request)) {
                int result = SocketNative.recvfrom(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    return !completeRead(dir, request, result);
                }
            }
            return engine.prepare(dir, IoUringNative.OP_RECV, engine.recvPriority(), channel.fd, base + position,
                    limit - position, 0, 0);
        }
        if (allDirect(request)) {
            IovecArray iovecs = dir.iovecs(request.length());
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
                if (tryRead(engine, dir, request)) {
                    long result = SocketNative.recvIov(channel.fd, iovecs.address(), iovecs.count(),
                            IoUringNative.MSG_DONTWAIT);
                    if (!Errors.isAgain(result)) {
                        return !completeRead(dir, request, (int) result);
                    }
                }
            }
            return engine.prepare(dir, IoUringNative.OP_READV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (file) {
            refuseHeapBuffer(channel);
        }
        int want = bounceSpace(request, IoUringDirection.BOUNCE_SIZE);
        if (want == 0) {
            request.complete(0);
            return false;
        }
        dir.mode = MODE_BOUNCE;
        dir.staged = want;
        NativeMemory bounce = dir.bounce();
        if (file) {
            return engine.prepare(dir, IoUringNative.OP_READ, 0, channel.fd, bounce.address(), want, offset, 0);
        }
        dir.asked = want;
        if (tryRead(engine, dir, request)) {
            int result = SocketNative.recvfrom(channel.fd, bounce.address(), want, IoUringNative.MSG_DONTWAIT, null);
            if (!Errors.isAgain(result)) {
                return !completeRead(dir, request, result);
            }
        }
        return engine.prepare(dir, IoUringNative.OP_RECV, engine.recvPriority(), channel.fd, bounce.address(), want,
                0, 0);
    }

    /**
     * Whether a stream read is tried on the socket at start, whatever its buffers: with {@code tryFirst}, unless the
     * last read drained the socket with no reap since (see {@link IoUringDirection#drainedAtReap}).
     */
    private static boolean tryRead(IoUringEngine engine, IoUringDirection dir, IoRequest request) {
        return request.bytes() == 0 && dir.drainedAtReap != engine.tryFirst().reaps() && engine.tryFirst().tryAtStart();
    }

    private static boolean completeRead(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (request.kind() == OpKind.READ) {
            boolean drained = result > 0 && result < dir.asked;
            dir.drainedAtReap = drained ? dir.channel.engine().tryFirst().reaps() : -1;
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
                dir.currentIovecs().advance(result);
                break;
            default:
                copyFromBounce(dir, request, result);
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

    private static void copyFromBounce(IoUringDirection dir, IoRequest request, int result) {
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

    private static int bounceSpace(IoRequest request, int blockSize) {
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

    // ---------------------------------------------------------------- writes

    private static boolean submitWrite(IoUringEngine engine, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() + request.bytes() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.baseAddress(buffer);
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
                return engine.prepare(dir, IoUringNative.OP_WRITE, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            int ioprio = 0;
            if (tryWrite(engine, request)) {
                int result = SocketNative.sendto(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    return !completeWrite(engine, dir, request, result);
                }
                ioprio = engine.recvPriority(); // the socket is full: wait for room before trying
            }
            return engine.prepare(dir, IoUringNative.OP_SEND, ioprio, channel.fd, base + position, limit - position,
                    0, IoUringNative.MSG_NOSIGNAL);
        }
        if (allDirect(request)) {
            IovecArray iovecs = dir.iovecs(request.length());
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
            if (!file && tryWrite(engine, request)) {
                long result = SocketNative.sendIov(channel.fd, iovecs.address(), iovecs.count(),
                        IoUringNative.MSG_DONTWAIT);
                if (!Errors.isAgain(result)) {
                    return !completeWrite(engine, dir, request, (int) result);
                }
            }
            return engine.prepare(dir, IoUringNative.OP_WRITEV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (file) {
            refuseHeapBuffer(channel);
        }
        int filled = stage(dir, request);
        if (filled == 0) {
            return false;
        }
        dir.mode = MODE_BOUNCE;
        NativeMemory bounce = dir.bounce();
        if (file) {
            return engine.prepare(dir, IoUringNative.OP_WRITE, 0, channel.fd, bounce.address(), filled, offset, 0);
        }
        int ioprio = 0;
        if (tryWrite(engine, request)) {
            int result = SocketNative.sendto(channel.fd, bounce.address(), filled, IoUringNative.MSG_DONTWAIT, null);
            if (!Errors.isAgain(result)) {
                return !completeWrite(engine, dir, request, result);
            }
            ioprio = engine.recvPriority(); // the socket is full: wait for room before trying
        }
        return engine.prepare(dir, IoUringNative.OP_SEND, ioprio, channel.fd, bounce.address(), filled, 0,
                IoUringNative.MSG_NOSIGNAL);
    }

    /**
     * Whether a stream write is tried on the socket at start, whatever its buffers: with {@code tryFirst}, the
     * first time only (what remains after a partial write waits for room in the ring).
     */
    private static boolean tryWrite(IoUringEngine engine, IoRequest request) {
        return request.bytes() == 0 && engine.tryFirst().tryAtStart();
    }

    /** Copies up to a block of the remaining bytes into the bounce block (Java-checked copies). */
    private static int stage(IoUringDirection dir, IoRequest request) {
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

    private static boolean completeWrite(IoUringEngine engine, IoUringDirection dir, IoRequest request, int result)
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
                dir.currentIovecs().advance(result);
                break;
            default:
                advance(request, result);
                break;
        }
        request.addBytes(result);
        if (!request.hasRemaining()) {
            return true;
        }
        if (!dir.channel.usable() || dir.cancelReason != null) {
            throw new AsynchronousCloseException(); // replaced by the cancel reason when there is one
        }
        return !submitWrite(engine, dir, request, file);
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

    // ---------------------------------------------------------------- accept

    /**
     * Whether to try an accept at start: as reads, unless the last try found no connection queued and no
     * completion was reaped since (the accept in the ring will say when one comes).
     */
    private static boolean tryAccept(IoUringEngine engine, IoUringDirection dir) {
        return engine.tryFirst().triesAtStart() && dir.drainedAtReap != engine.tryFirst().reaps();
    }

    /**
     * Accepts a queued connection at start, without the ring (a burst of connections is taken by the starting
     * threads, one system call each, instead of one ring round trip and one dispatch through the leader each).
     *
     * @return true if the request finished (accepted), false if no connection is queued
     */
    private static boolean acceptNow(IoUringDirection dir, IoRequest request) throws IOException {
        Sockaddr peer = dir.sockaddr();
        for (;;) {
            int result = IoUringNative.tryAccept(dir.channel.fd, peer);
            if (result >= 0) {
                request.completeAccept(new IoUringAccepted(result), peer.get());
                return true;
            }
            if (Errors.isAgain(result)) {
                dir.drainedAtReap = dir.channel.engine().tryFirst().reaps();
                return false;
            }
            // A connection reset while queued concerns that connection only: take the next one.
            if (result != -ErrnoNative.ECONNABORTED) {
                throw Errors.newException("accept4", result);
            }
        }
    }

    private static boolean submitAccept(IoUringEngine engine, IoUringDirection dir) throws IOException {
        long peer = IoUringNative.prepareForOutput(dir.sockaddr());
        NativeMemory message = dir.message();
        message.buffer().putInt(IoUringDirection.socklenOffset(), Sockaddr.CAPACITY);
        return engine.prepare(dir, IoUringNative.OP_ACCEPT, 0, dir.channel.fd, peer, 0,
                message.address(IoUringDirection.socklenOffset(), 4),
                IoUringNative.SOCK_CLOEXEC); // blocking: see IoUringNative.setBlocking
    }

    // ---------------------------------------------------------------- datagrams

    private static boolean submitReceive(IoUringEngine engine, IoUringDirection dir, IoRequest request)
            throws IOException {
        ByteBuffer destination = request.firstBuffer();
        int position = destination.position();
        int limit = destination.limit();
        DirectBuffers.checkRange(destination, position, limit);
        int room = limit - position;
        if (destination.isReadOnly() || room == 0) {
            throw new IllegalArgumentException("receive needs a writable buffer with space remaining");
        }
        long from = IoUringNative.prepareForOutput(dir.sockaddr());
        long base;
        int length;
        if (destination.isDirect()) {
            dir.mode = MODE_SINGLE;
            base = dir.baseAddress(destination) + position;
            length = room;
        } else {
            dir.mode = MODE_BOUNCE;
            base = dir.bounce().address();
            length = Math.min(room, IoUringDirection.BOUNCE_SIZE);
        }
        dir.startPosition = position;
        dir.staged = length;
        long message = fillMessage(dir, from, Sockaddr.CAPACITY, base, length);
        return engine.prepare(dir, IoUringNative.OP_RECVMSG, 0, dir.channel.fd, message, 1, 0, 0);
    }

    private static boolean completeReceive(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (result < 0) {
            throw failure("recvmsg", result, false);
        }
        int stored = Math.min(result, dir.staged);
        ByteBuffer destination = request.firstBuffer();
        if (dir.mode == MODE_BOUNCE && stored > 0) {
            destination.put(dir.startPosition, dir.bounce().buffer(), 0, stored);
        }
        destination.position(dir.startPosition + stored);
        request.peer(dir.sockaddr().getCached());
        request.complete(stored);
        return true;
    }

    private static boolean submitSend(IoUringEngine engine, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringChannel channel = dir.channel;
        ByteBuffer source = request.firstBuffer();
        SocketAddress target = request.address();
        Sockaddr to = target == null ? null : dir.sockaddr().setFor(channel.family, checkTarget(channel, target));
        int position = source.position();
        int limit = source.limit();
        DirectBuffers.checkRange(source, position, limit);
        int size = limit - position;
        long base;
        if (source.isDirect()) {
            dir.mode = MODE_SINGLE;
            base = dir.baseAddress(source) + position;
        } else if (size > IoUringDirection.BOUNCE_SIZE) {
            throw Errors.newException("sendmsg", -ErrnoNative.EMSGSIZE);
        } else {
            dir.mode = MODE_BOUNCE;
            NativeMemory block = dir.bounce();
            block.buffer().put(0, source, position, size);
            base = block.address();
        }
        dir.startPosition = position;
        long message = fillMessage(dir, to == null ? 0 : to.address(), to == null ? 0 : to.length(), base, size);
        return engine.prepare(dir, IoUringNative.OP_SENDMSG, 0, channel.fd, message, 1, 0,
                IoUringNative.MSG_NOSIGNAL);
    }

    private static boolean completeSend(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (result < 0) {
            throw failure("sendmsg", result, request.address() == null);
        }
        request.firstBuffer().position(dir.startPosition + result);
        if (request.address() == null) {
            request.peer(dir.channel.connectedPeer());
        }
        request.complete(result);
        return true;
    }

    /** Fills the direction's msghdr with one iovec; returns the msghdr's address. */
    private static long fillMessage(IoUringDirection dir, long name, int nameLength, long base, int length) {
        NativeMemory message = dir.message();
        ByteBuffer m = message.buffer();
        for (int i = 0; i < IoUringNative.MSGHDR_SIZE; i++) {
            m.put(i, (byte) 0);
        }
        int iov = IoUringDirection.iovecOffset();
        m.putLong(iov + IoUringNative.IOVEC_BASE_OFFSET, base);
        m.putLong(iov + IoUringNative.IOVEC_LEN_OFFSET, length);
        m.putLong(IoUringNative.MSGHDR_NAME, name);
        m.putInt(IoUringNative.MSGHDR_NAMELEN, nameLength);
        m.putLong(IoUringNative.MSGHDR_IOV, message.address() + iov);
        m.putLong(IoUringNative.MSGHDR_IOVLEN, 1);
        return message.address();
    }

    private static InetSocketAddress checkTarget(IoUringChannel channel, SocketAddress target) {
        InetSocketAddress inet = inet(target);
        if (channel.family == dev.proactor.jni.internal.SocketNative.AF_INET
                && inet.getAddress() instanceof Inet6Address) {
            throw new UnsupportedAddressTypeException();
        }
        return inet;
    }

    private static IOException failure(String call, int result, boolean noTarget) {
        if (noTarget && (result == -ErrnoNative.EDESTADDRREQ || result == -ErrnoNative.ENOTCONN)) {
            throw new NotYetConnectedException();
        }
        IOException mapped = Errors.newException(call, result);
        if (result == -ErrnoNative.ECONNREFUSED) {
            PortUnreachableException unreachable = new PortUnreachableException(mapped.getMessage());
            unreachable.initCause(mapped.getCause() != null ? mapped.getCause() : mapped);
            return unreachable;
        }
        return mapped;
    }

    // ---------------------------------------------------------------- checks

    static InetSocketAddress inet(SocketAddress address) {
        if (!(address instanceof InetSocketAddress)) {
            throw new UnsupportedAddressTypeException();
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        if (inet.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

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
