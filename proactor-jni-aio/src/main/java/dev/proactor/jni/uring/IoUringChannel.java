package dev.proactor.jni.uring;

import static dev.proactor.jni.engine.CloseFailures.addTo;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.engine.SocketDescriptors;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.Locale;

/**
 * The io_uring engine's state of one socket or file: the engine's own descriptor (created, accepted, or a
 * duplicate of a registered JDK channel's or an opened {@link FileChannel}'s), and its two directions. Mutable
 * state is guarded by this object's monitor.
 *
 * <p>Closing releases the descriptor once the kernel has taken in every SQE written for it (see
 * {@link IoUringEngine}): requests in the kernel hold their own reference to the file, so a number reused by the
 * process is never touched by them, and the core has cancelled them before (their cancellation completes through
 * the ring). A request whose completion arrives after the close is never continued on the descriptor, and the
 * descriptor is never asked anything after the close.
 */
final class IoUringChannel implements EngineChannel {

    /** What the descriptor is; decides which requests make sense on it. */
    enum Kind {
        STREAM, SERVER, DATAGRAM, FILE
    }

    final int fd;
    final Kind kind;
    /** Address family of a datagram socket or a registered JDK socket (IPv4 targets mapped for AF_INET6), else 0. */
    final int family;
    /** The JDK channel the user registered or the engine opened for a file (it owns its own descriptor), or null. */
    private final Channel owner;

    final IoUringDirection input = new IoUringDirection(this);
    final IoUringDirection output = new IoUringDirection(this);

    /** For a file: whether it was opened for reading and for writing (sockets: both true). */
    boolean readable = true;
    boolean writable = true;
    /** For a file opened or wrapped with {@code O_DIRECT}: the alignment every transfer needs; else null. */
    DirectIoAlignment alignment;
    /** Whether {@link #close()} closes the owner (false for a file the user wrapped and still owns). */
    boolean closesOwner = true;
    /** For a listening socket: the process's count of channels accepting on it (set before publication), else null. */
    IoUringListeners.Listener listener;

    /** Guarded by this. */
    boolean closed;
    /** Connected peer of a datagram socket, looked up once. Guarded by this. */
    private SocketAddress connectedPeer;

    private final IoUringEngine engine;

    IoUringChannel(IoUringEngine engine, int fd, Kind kind, int family, Channel owner) {
        this.engine = engine;
        this.fd = fd;
        this.kind = kind;
        this.family = family;
        this.owner = owner;
    }

    /** Whether the channel can take a system call or request now (not closed, its owner not closed directly). */
    boolean usable() {
        return !closed && (owner == null || owner.isOpen());
    }

    /** The connected peer of a datagram socket, or null; caller holds this channel's monitor. */
    SocketAddress connectedPeer() {
        if (connectedPeer == null && !closed) { // closed: the descriptor may already name another socket
            connectedPeer = SocketDescriptors.peerOrNull(fd);
        }
        return connectedPeer;
    }

    @Override
    public synchronized SocketAddress localAddress() throws IOException {
        checkOpen();
        return kind == Kind.FILE ? null : SocketDescriptors.localAddress(fd);
    }

    @Override
    public synchronized SocketAddress remoteAddress() throws IOException {
        checkOpen();
        return kind == Kind.SERVER || kind == Kind.FILE ? null : SocketDescriptors.remoteAddress(fd);
    }

    @Override
    public synchronized void shutdownOutput() throws IOException {
        checkOpen();
        SocketDescriptors.shutdownOutput(fd, kind == Kind.STREAM);
    }

    @Override
    public synchronized void shutdownInput() throws IOException {
        checkOpen();
        SocketDescriptors.shutdownInput(fd, kind == Kind.STREAM);
    }

    @Override
    public long size() throws IOException {
        if (kind != Kind.FILE) {
            throw new UnsupportedOperationException("size() needs a file channel, not " + this);
        }
        synchronized (this) {
            checkOpen();
        }
        return ((FileChannel) owner).size();
    }

    @Override
    public synchronized <T> void setOption(SocketOption<T> name, T value) throws IOException {
        checkOpen();
        if (kind == Kind.FILE) {
            throw new UnsupportedOperationException("socket option " + name + " on a file channel");
        }
        SocketDescriptors.setOption(fd, name, value);
    }

    @Override
    public synchronized <T> T getOption(SocketOption<T> name) throws IOException {
        checkOpen();
        if (kind == Kind.FILE) {
            throw new UnsupportedOperationException("socket option " + name + " on a file channel");
        }
        return SocketDescriptors.getOption(fd, name);
    }

    private void checkOpen() throws ClosedChannelException {
        if (!usable()) {
            throw new ClosedChannelException();
        }
    }

    /**
     * Closes the engine's descriptor and the owner channel, if any and not the user's. Requests still in the ring
     * keep the kernel's file alive until their (cancelled) completion. Idempotent; any thread.
     *
     * @throws IOException if closing the descriptor or the owner failed: the first failure, a later one suppressed
     *                     in it (both are always tried)
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            IoUringTransmit.release(output.transmit);
            // The input's multishot request gives back what it holds (a receive's blocks; an accept's connections,
            // reset as those left in the backlog) and is cancelled if armed (release submits the cancel).
            engine.starter().closeMultishot(input);
        }
        if (kind == Kind.SERVER) {
            // ACCEPTs in flight hold the socket until their cancel completes: stop listening now, so the port is
            // free (and connection attempts refused) when close returns. The accepts end with the close's error.
            SocketNative.shutdown(fd, SocketNative.SHUT_RDWR);
        }
        if (listener != null) {
            IoUringListeners.leave(listener); // not listening any more: nothing of this channel takes a connection
        }
        // The kernel looks the descriptor up when it takes an SQE in: the number is freed only once every SQE
        // written for it was taken in (none can be written after: closed is set), so none reaches a socket or file
        // that gets the number next.
        int result = engine.channels().release(this) ? IoNative.close(fd) : 0;
        IOException failure = result < 0 ? Errors.newException("close", result) : null;
        if (owner != null && closesOwner) {
            try {
                owner.close();
            } catch (IOException e) {
                failure = addTo(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public synchronized boolean isClosed() {
        return !usable();
    }

    @Override
    public String toString() {
        return "io_uring " + kind.name().toLowerCase(Locale.ROOT) + " channel fd " + fd;
    }

    /** The engine this channel belongs to. */
    IoUringEngine engine() {
        return engine;
    }
}
