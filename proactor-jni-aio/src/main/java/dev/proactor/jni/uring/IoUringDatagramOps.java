package dev.proactor.jni.uring;

import dev.proactor.jni.internal.NativeScratch;
import dev.proactor.jni.internal.SocketAddresses;
import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * Datagram receive and send for {@link IoUringOps}: {@code RECVMSG}/{@code SENDMSG} on the direction's msghdr with
 * one iovec, the sender's or target's address in the direction's socket address block; a heap buffer goes through
 * the direction's 64 KiB block. Stateless; the caller holds the channel's monitor (a starting thread, or the leader
 * handling the completion).
 */
final class IoUringDatagramOps {

    private IoUringDatagramOps() {
    }

    static boolean submitReceive(IoUringEngine engine, IoUringDirection dir, IoRequest request)
            throws IOException {
        ByteBuffer destination = request.firstBuffer();
        int position = destination.position();
        int limit = destination.limit();
        int room = DirectBuffers.receiveRoom(destination, position, limit);
        long from = IoUringNative.prepareForOutput(dir.scratch.sockaddr());
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
        long message = fillMessage(dir, from, Sockaddr.CAPACITY, base, length);
        return engine.prepare(dir, IoUringNative.OP_RECVMSG, 0, dir.channel.fd, message, 1, 0, 0);
    }

    static boolean completeReceive(IoUringDirection dir, IoRequest request, int result) throws IOException {
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
        return true;
    }

    static boolean submitSend(IoUringEngine engine, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringChannel channel = dir.channel;
        ByteBuffer source = request.firstBuffer();
        SocketAddress target = request.address();
        Sockaddr to = target == null ? null : dir.scratch.sockaddr().setFor(channel.family, SocketAddresses.datagramTarget(channel.family, target));
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
        long message = fillMessage(dir, to == null ? 0 : to.address(), to == null ? 0 : to.length(), base, size);
        return engine.prepare(dir, IoUringNative.OP_SENDMSG, 0, channel.fd, message, 1, 0,
                IoUringNative.MSG_NOSIGNAL);
    }

    static boolean completeSend(IoUringDirection dir, IoRequest request, int result) throws IOException {
        if (result < 0) {
            throw SocketAddresses.datagramFailure("sendmsg", result, request.address() == null);
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
}
