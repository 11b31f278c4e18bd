package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;

/**
 * The epoll engine's state of one socket: its descriptor, its id in the engine's table, and the pending
 * request of each direction. Every mutable field, and every system call on the descriptor (and on the
 * duplicate file descriptor of a transmission), is guarded by synchronizing on this object (see the package
 * documentation for why that makes closing safe).
 */
final class EpollChannel implements EngineChannel {

    /** What the descriptor is; decides which requests make sense on it. */
    enum Kind {
        /** A connected or connecting stream socket: read, write, connect, transmitFile. */
        STREAM,
        /** A listening stream socket: accept. */
        SERVER,
        /** A datagram socket, bound or connected: receive, send. */
        DATAGRAM
    }

    private final EpollEngine engine;
    final int fd;
    private final long id;
    final Kind kind;
    /** The socket's address family ({@code AF_INET} or {@code AF_INET6}) for a datagram channel, else 0. */
    final int family;
    /** The JDK channel that owns the descriptor when the user registered one, else null (we own it). */
    private final Channel owner;

    /** Pending read, accept or receive, or null. Guarded by this. */
    IoRequest input;
    /** Pending write, connect, send or transmit, or null. Guarded by this. */
    IoRequest output;
    /** Guarded by this. */
    boolean closed;

    /** Per-direction native scratch (addresses, iovecs, bounce buffer); used under this lock only. */
    final EpollScratch inputScratch = new EpollScratch();
    final EpollScratch outputScratch = new EpollScratch();
    /** The file side of a transmission, made at this channel's first one. Guarded by this. */
    private TransmitSource transmitSource;
    /** The connected peer of a datagram channel, looked up at its first send without a target. Guarded by this. */
    private SocketAddress connectedPeer;

    EpollChannel(EpollEngine engine, int fd, long id, Kind kind, int family, Channel owner) {
        this.engine = engine;
        this.fd = fd;
        this.id = id;
        this.kind = kind;
        this.family = family;
        this.owner = owner;
    }

    /** The epoll user data of this channel's events. */
    long id() {
        return id;
    }

    /** The file side of transmissions on this channel. Lock held. */
    TransmitSource transmitSource() {
        if (transmitSource == null) {
            transmitSource = new TransmitSource();
        }
        return transmitSource;
    }

    /** Releases the file descriptor a transmission holds, if any (it ended or was cancelled). Lock held. */
    void releaseTransmitSource() {
        if (transmitSource != null) {
            transmitSource.release();
        }
    }

    /**
     * The peer of a connected datagram socket, for the result of a send without a target; looked up once, as the
     * user does not reconnect a registered channel. Null if it cannot be told. Lock held.
     */
    SocketAddress connectedPeer() {
        if (connectedPeer == null) {
            Sockaddr address = new Sockaddr();
            if (SocketNative.peerAddress(fd, address) == 0) {
                connectedPeer = address.get();
            }
        }
        return connectedPeer;
    }

    @Override
    public synchronized SocketAddress localAddress() throws IOException {
        checkOpen();
        Sockaddr address = new Sockaddr();
        Errors.check("getsockname", SocketNative.localAddress(fd, address));
        return address.get();
    }

    @Override
    public synchronized SocketAddress remoteAddress() throws IOException {
        checkOpen();
        if (kind == Kind.SERVER) {
            return null;
        }
        Sockaddr address = new Sockaddr();
        int result = SocketNative.peerAddress(fd, address);
        if (result == -ErrnoNative.ENOTCONN) {
            return null;
        }
        Errors.check("getpeername", result);
        return address.get();
    }

    @Override
    public synchronized void shutdownOutput() throws IOException {
        checkOpen();
        if (kind != Kind.STREAM) {
            throw new UnsupportedOperationException("shutdownOutput needs a connected stream socket");
        }
        Errors.check("shutdown", SocketNative.shutdown(fd, SocketNative.SHUT_WR));
    }

    @Override
    public synchronized <T> void setOption(SocketOption<T> name, T value) throws IOException {
        checkOpen();
        EpollSocketOptions.Native n = EpollSocketOptions.of(name);
        Errors.check("setsockopt", SocketNative.setIntOption(fd, n.level(), n.option(),
                EpollSocketOptions.toNative(name, n, value)));
    }

    @Override
    public synchronized <T> T getOption(SocketOption<T> name) throws IOException {
        checkOpen();
        EpollSocketOptions.Native n = EpollSocketOptions.of(name);
        int v = SocketNative.getIntOption(fd, n.level(), n.option());
        Errors.check("getsockopt", v);
        return name.type().cast(EpollSocketOptions.fromNative(n, v));
    }

    /**
     * Marks the channel closed under its lock (so no system call on the descriptor is running or can
     * start), releases a transmission's file descriptor, removes the channel from the epoll set and the
     * table, and releases the descriptor: through the JDK channel that owns it, or with close(2). Pending
     * requests stay in their slots for the core's cancel.
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            releaseTransmitSource();
        }
        IOException failure = engine.deregister(this);
        if (owner != null) {
            try {
                owner.close();
            } catch (IOException e) {
                failure = addTo(failure, e);
            }
        } else {
            int result = IoNative.close(fd);
            if (result < 0) {
                failure = addTo(failure, Errors.newException("close", result));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException addTo(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public synchronized boolean isClosed() {
        return closed || (owner != null && !owner.isOpen());
    }

    private void checkOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        return "epoll " + kind.name().toLowerCase(java.util.Locale.ROOT) + " channel fd " + fd;
    }
}
