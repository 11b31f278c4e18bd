package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.engine.SocketAddresses;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * Datagram receive and send for {@link IoUringOps}: {@code RECVMSG}/{@code SENDMSG} on the direction's msghdr with
 * one iovec, the sender's or target's address in the direction's socket address block; a heap buffer goes through
 * the direction's 64 KiB block. Stateless; the caller holds the channel's monitor (a starting thread, or the leader
 * handling the completion).
 *
 * <p><b>Tried at start.</b> Unless {@code proactor.uring.tryFirst} is {@code false}, a receive or send is first
 * tried on the socket with one non-blocking {@code recvfrom}/{@code sendto}, whatever the leader's last turn
 * completed (unlike a stream read or write, which then shares the next enter): one datagram socket serves many peers,
 * and only an operation that completes at start can follow its callback on the same thread
 * ({@code AsynchChannel.setChainedCallbacks}, on by default for datagram sockets); through the ring, each datagram
 * would wait for a reap and a trip through every other channel's completions. A receive that found nothing goes to
 * the ring, and the next ones do too, untried, until the leader's next reap.
 */
final class IoUringDatagramOps {

    private IoUringDatagramOps() {
    }

    /**
     * Describes the receive's {@code RECVMSG}, unless a datagram was received at once.
     *
     * @return the SQE to write, or null if the request finished without one (result recorded)
     */
    static IoUringSqe submitReceive(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        ByteBuffer destination = request.firstBuffer();
        int position = destination.position();
        int limit = destination.limit();
        int room = DirectBuffers.receiveRoom(destination, position, limit);
        long base;
        int length;
        if (destination.isDirect()) {
            dir.mode = IoUringOps.MODE_SINGLE;
            base = dir.scratch.baseAddress(destination) + position;
            length = room;
        } else {
            dir.mode = IoUringOps.MODE_BOUNCE;
            base = dir.scratch.bounce().address();
            length = Math.min(room, NativeScratch.BOUNCE_SIZE);
        }
        dir.startPosition = position;
        dir.staged = length;
        IoUringTryFirst tryFirst = context.tryFirst();
        if (tryFirst.triesAtStart() && dir.drainedAtTurn != tryFirst.turns()) {
            int result = SocketNative.recvfrom(dir.channel.fd, base, length, IoUringNative.MSG_DONTWAIT,
                    dir.scratch.sockaddr());
            if (!Errors.isAgain(result)) {
                completeReceive(dir, request, result);
                return null;
            }
            dir.drainedAtTurn = tryFirst.turns();
        }
        long from = IoUringNative.prepareForOutput(dir.scratch.sockaddr());
        long message = fillMessage(dir, from, Sockaddr.CAPACITY, base, length);
        return dir.sqe.describe(IoUringNative.OP_RECVMSG, 0, dir.channel.fd, message, 1, 0, 0);
    }

    /** Records a receive's result (tried at start, or its {@code RECVMSG}'s): a receive finishes with it. */
    static void completeReceive(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (result < 0) {
            throw SocketAddresses.datagramFailure("recvmsg", result, false);
        }
        int stored = Math.min(result, dir.staged);
        ByteBuffer destination = request.firstBuffer();
        if (dir.mode == IoUringOps.MODE_BOUNCE && stored > 0) {
            destination.put(dir.startPosition, dir.scratch.bounce().buffer(), 0, stored);
        }
        destination.position(dir.startPosition + stored);
        request.peer(dir.scratch.sockaddr().getCached());
        request.complete(stored);
    }

    /**
     * Describes the send's {@code SENDMSG}, unless the datagram was sent at once.
     *
     * @return the SQE to write, or null if the request finished without one (result recorded)
     */
    static IoUringSqe submitSend(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringChannel channel = dir.channel;
        ByteBuffer source = request.firstBuffer();
        SocketAddress target = request.address();
        Sockaddr to = target == null ? null
                : dir.scratch.sockaddr().setFor(channel.family, SocketAddresses.datagramTarget(channel.family, target));
        int position = source.position();
        int limit = source.limit();
        DirectBuffers.checkRange(source, position, limit);
        int size = limit - position;
        long base;
        if (source.isDirect()) {
            dir.mode = IoUringOps.MODE_SINGLE;
            base = dir.scratch.baseAddress(source) + position;
        } else if (size > NativeScratch.BOUNCE_SIZE) {
            throw Errors.newException("sendmsg", -ErrnoNative.EMSGSIZE);
        } else {
            dir.mode = IoUringOps.MODE_BOUNCE;
            NativeMemory block = dir.scratch.bounce();
            block.buffer().put(0, source, position, size);
            base = block.address();
        }
        dir.startPosition = position;
        if (context.tryFirst().triesAtStart()) {
            int result = SocketNative.sendto(channel.fd, base, size, IoUringNative.MSG_DONTWAIT, to);
            if (!Errors.isAgain(result)) {
                completeSend(dir, request, result);
                return null;
            }
        }
        long message = fillMessage(dir, to == null ? 0 : to.address(), to == null ? 0 : to.length(), base, size);
        return dir.sqe.describe(IoUringNative.OP_SENDMSG, 0, channel.fd, message, 1, 0, IoUringNative.MSG_NOSIGNAL);
    }

    /** Records a send's result (tried at start, or its {@code SENDMSG}'s): a send finishes with it. */
    static void completeSend(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (result < 0) {
            throw SocketAddresses.datagramFailure("sendmsg", result, request.address() == null);
        }
        request.firstBuffer().position(dir.startPosition + result);
        if (request.address() == null) {
            request.peer(dir.channel.connectedPeer());
        }
        request.complete(result);
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
}
