package dev.proactor.nio;

import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The non-blocking system calls that turn readiness into completion: each method tries the request once and
 * says whether it is finished (its result recorded) or must wait for readiness. Stateless; the caller holds
 * the channel's lock. Heap buffers move at most 64 KiB per call ({@link HeapSlices}). Allocates nothing: a
 * receive returns the JDK's source address object, which the JDK reuses while datagrams keep coming from the same
 * sender. File transmission is in {@link NioTransmit}. Accepts and connects make no permission checks
 * ({@link PrivilegedConnections}).
 */
final class NioOperations {

    /** {@code engineScratch} value of a connect whose {@code connect()} call was already made. */
    private static final long CONNECT_ISSUED = 1;

    private NioOperations() {
    }

    /** The selection-key interest a pending request of this kind waits for. */
    static int interestOf(OpKind kind) {
        return switch (kind) {
            case READ, RECEIVE -> SelectionKey.OP_READ;
            case ACCEPT -> SelectionKey.OP_ACCEPT;
            case WRITE, SEND, TRANSMIT_FILE -> SelectionKey.OP_WRITE;
            case CONNECT -> SelectionKey.OP_CONNECT;
            default -> throw new IllegalArgumentException("nio engine does not run " + kind);
        };
    }

    /**
     * Tries the request once.
     *
     * @return {@code true} if finished (result recorded), {@code false} if it must wait for readiness
     * @throws IOException on an I/O error (the caller records it as the result)
     */
    static boolean tryOnce(NioChannel nc, IoRequest r) throws IOException {
        return switch (r.kind()) {
            case READ -> read(nc, r);
            case WRITE -> write(nc, r);
            case ACCEPT -> accept(nc, r);
            case CONNECT -> connect(nc, r);
            case RECEIVE -> receive(nc, r);
            case SEND -> send(nc, r);
            case TRANSMIT_FILE -> NioTransmit.step(nc, r);
            default -> throw new IllegalArgumentException("nio engine does not run " + r.kind());
        };
    }

    private static boolean read(NioChannel nc, IoRequest r) throws IOException {
        if (!(nc.channel instanceof ScatteringByteChannel ch)) {
            throw new IllegalArgumentException("read needs a stream socket, not " + nc.channel);
        }
        long n = HeapSlices.read(ch, r.buffers(), r.offset(), r.length());
        if (n == 0) {
            return false;
        }
        r.complete(n < 0 ? -1 : n);
        return true;
    }

    private static boolean write(NioChannel nc, IoRequest r) throws IOException {
        if (!(nc.channel instanceof GatheringByteChannel ch)) {
            throw new IllegalArgumentException("write needs a stream socket, not " + nc.channel);
        }
        ByteBuffer[] bufs = r.buffers();
        // Continue partial writes until everything is out or the socket buffer is full.
        while (r.hasRemaining()) {
            long n = HeapSlices.write(ch, bufs, r.offset(), r.length());
            if (n == 0) {
                return false;
            }
            r.addBytes(n);
        }
        return true;
    }

    private static boolean accept(NioChannel nc, IoRequest r) throws IOException {
        if (!(nc.channel instanceof ServerSocketChannel ssc)) {
            throw new IllegalArgumentException("accept needs a listening socket, not " + nc.channel);
        }
        SocketChannel sc = PrivilegedConnections.accept(ssc);
        if (sc == null) {
            return false;
        }
        try {
            r.completeAccept(sc, sc.getRemoteAddress());
        } catch (IOException e) {
            sc.close(); // the peer is already gone; do not leak the descriptor
            throw e;
        }
        return true;
    }

    private static boolean connect(NioChannel nc, IoRequest r) throws IOException {
        if (!(nc.channel instanceof SocketChannel sc)) {
            throw new IllegalArgumentException("connect needs a stream socket, not " + nc.channel);
        }
        if (r.engineScratch() != CONNECT_ISSUED) {
            r.engineScratch(CONNECT_ISSUED);
            if (!PrivilegedConnections.connect(sc, r.address())) {
                return false;
            }
        } else if (!sc.finishConnect()) {
            return false;
        }
        r.peer(r.address());
        return true;
    }

    /**
     * Receives one datagram. The JDK stores what fits in the buffer and discards the rest of a larger datagram
     * without telling: the result is the number of bytes stored (0 for an empty datagram).
     */
    private static boolean receive(NioChannel nc, IoRequest r) throws IOException {
        DatagramChannel dc = datagram(nc, "receive");
        ByteBuffer dst = r.firstBuffer();
        int before = dst.position();
        SocketAddress source = dc.receive(dst);
        if (source == null) {
            return false;
        }
        r.peer(source);
        r.complete(dst.position() - before);
        return true;
    }

    /**
     * Sends one datagram: to the request's address, or with {@code write} to the connected peer when it has
     * none. The JDK sends a datagram whole or not at all (0 when the socket buffer is full); an empty datagram
     * cannot be told apart from "not sent", so it counts as sent at the first try.
     */
    private static boolean send(NioChannel nc, IoRequest r) throws IOException {
        DatagramChannel dc = datagram(nc, "send");
        ByteBuffer src = r.firstBuffer();
        int size = src.remaining();
        SocketAddress target = r.address();
        int n = target == null ? dc.write(src) : dc.send(src, target);
        if (n == 0 && size > 0) {
            return false;
        }
        if (target == null) {
            r.peer(dc.getRemoteAddress());
        }
        r.complete(n);
        return true;
    }

    private static DatagramChannel datagram(NioChannel nc, String what) {
        if (!(nc.channel instanceof DatagramChannel dc)) {
            throw new IllegalArgumentException(what + " needs a datagram socket, not " + nc.channel);
        }
        return dc;
    }
}
