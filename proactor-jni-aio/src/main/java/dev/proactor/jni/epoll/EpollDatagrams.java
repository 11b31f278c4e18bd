package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.BounceBlocks;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.engine.SocketAddresses;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * Receive and send on a non-blocking datagram socket: {@code recvfrom(2)} and {@code sendto(2)} on buffer
 * addresses, each tried once per readiness edge like the stream operations. Stateless; the caller holds the
 * channel's lock.
 *
 * <p>Receive stores what fits in the buffer and discards the rest of a larger datagram (the kernel does,
 * {@code MSG_TRUNC} only lets it say how long the datagram was): the result is the number of bytes stored, 0 for
 * an empty datagram, as in the emulated engine. Send sends the datagram whole or not at all; an empty one is
 * sent. Heap buffers go through the direction's 64 KiB block (larger than any UDP payload over IPv4, and than
 * any IPv6 one short of a jumbogram).
 *
 * <p>No allocation per operation with direct buffers: the sender's address comes from the channel's socket
 * address block, decoded again only when the sender changes ({@link Sockaddr#getCached()}); a target is encoded
 * again only when it changes ({@link Sockaddr#setFor}); the peer of a connected socket is looked up once.
 */
final class EpollDatagrams {

    private EpollDatagrams() {
    }

    /**
     * Receives one datagram into the request's first buffer.
     *
     * @return {@code true} if received (bytes stored and sender recorded), {@code false} if none is queued
     * @throws IOException on a socket error (a pending ICMP port unreachable: {@link PortUnreachableException})
     */
    static boolean receive(EpollChannel channel, IoRequest request) throws IOException {
        requireDatagram(channel, "receive");
        ByteBuffer destination = request.firstBuffer();
        NativeScratch scratch = channel.inputScratch;
        // Position and limit are read once: address and length of the call both come from them (see DirectBuffers).
        int position = destination.position();
        int limit = destination.limit();
        int room = DirectBuffers.receiveRoom(destination, position, limit);
        Sockaddr from = scratch.sockaddr();
        int result;
        int stored;
        if (destination.isDirect()) {
            long address = scratch.baseAddress(destination) + position;
            result = SocketNative.recvfrom(channel.fd, address, room, SocketNative.MSG_TRUNC, from);
            stored = Math.min(result, room);
        } else {
            NativeMemory block = BounceBlocks.take();
            try {
                int want = Math.min(room, block.size());
                result = SocketNative.recvfrom(channel.fd, block.address(), want, SocketNative.MSG_TRUNC, from);
                stored = Math.min(result, want);
                if (stored > 0) {
                    destination.put(position, block.buffer(), 0, stored);
                }
            } finally {
                BounceBlocks.give(block);
            }
        }
        if (Errors.isAgain(result)) {
            return false;
        }
        if (result < 0) {
            throw SocketAddresses.datagramFailure("recvfrom", result, false);
        }
        destination.position(position + stored);
        request.peer(from.getCached());
        request.complete(stored);
        return true;
    }

    /**
     * Sends the request's first buffer as one datagram: to the request's address, or to the connected peer
     * when it has none.
     *
     * @return {@code true} if sent, {@code false} if the socket buffer is full
     * @throws IOException on a socket error; a datagram too large for the protocol fails with {@code EMSGSIZE}
     */
    static boolean send(EpollChannel channel, IoRequest request) throws IOException {
        requireDatagram(channel, "send");
        ByteBuffer source = request.firstBuffer();
        SocketAddress target = request.address();
        NativeScratch scratch = channel.outputScratch;
        Sockaddr to = target == null ? null
                : scratch.sockaddr().setFor(channel.family, SocketAddresses.datagramTarget(channel.family, target));
        // Position and limit are read once: address and length of the call both come from them (see DirectBuffers).
        int position = source.position();
        int limit = source.limit();
        DirectBuffers.checkRange(source, position, limit);
        int size = limit - position;
        int result;
        if (source.isDirect()) {
            result = SocketNative.sendto(channel.fd, scratch.baseAddress(source) + position, size, 0, to);
        } else if (size > NativeScratch.BOUNCE_SIZE) {
            result = -ErrnoNative.EMSGSIZE; // larger than any datagram the socket would take
        } else {
            NativeMemory block = BounceBlocks.take();
            try {
                block.buffer().put(0, source, position, size);
                result = SocketNative.sendto(channel.fd, block.address(), size, 0, to);
            } finally {
                BounceBlocks.give(block);
            }
        }
        if (Errors.isAgain(result)) {
            return false;
        }
        if (result < 0) {
            throw SocketAddresses.datagramFailure("sendto", result, target == null);
        }
        source.position(position + result);
        if (target == null) {
            request.peer(channel.connectedPeer());
        }
        request.complete(result);
        return true;
    }

    private static void requireDatagram(EpollChannel channel, String operation) {
        if (channel.kind != EpollChannel.Kind.DATAGRAM) {
            throw new IllegalArgumentException(operation + " needs a datagram socket, not " + channel);
        }
    }
}
