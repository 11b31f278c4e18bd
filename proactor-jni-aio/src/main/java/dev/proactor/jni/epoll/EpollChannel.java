package dev.proactor.jni.epoll;

import static dev.proactor.jni.engine.CloseFailures.addTo;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.engine.SocketDescriptors;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;

/**
 * The epoll engine's state of one socket: its descriptor, its id in the engine's table, and the pending
 * request of each direction. Every mutable field, and every system call on the descriptor (and on the
 * duplicate file descriptor of a transmission), is guarded by synchronizing on this object (see the package
 * documentation for why that makes closing safe).
 *
 * <p>The descriptor is always the engine's own: one it created or accepted, or, for a JDK channel the user
 * registered, a duplicate of the JDK channel's descriptor. With the JDK's own number the user closing that
 * channel directly (a misuse, but one the engine cannot prevent) would free the number while the engine still
 * used it, and the next socket of the process would get it: reads and writes of this channel would then go to
 * that socket. The duplicate stays valid and names this socket until the engine closes it. The engine notices
 * the owner's close before each system call and on each readiness event ({@link #ownerClosed()}), and then
 * releases the duplicate (which ends the connection) and fails the channel's operations.
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
    /** The engine's own descriptor (a duplicate of the owner's for a registered JDK channel). */
    final int fd;
    private final long id;
    final Kind kind;
    /**
     * The socket's address family ({@code AF_INET} or {@code AF_INET6}) for a datagram channel or a registered JDK
     * socket (a dual-stack one needs IPv4 targets mapped), else 0.
     */
    final int family;
    /**
     * The JDK channel the user registered, else null. It keeps its own descriptor, which the engine never uses:
     * {@link #fd} is the engine's duplicate of it.
     */
    private final Channel owner;

    /** Pending read, accept or receive, or null. Guarded by this. */
    IoRequest input;
    /** Pending write, connect, send or transmit, or null. Guarded by this. */
    IoRequest output;
    /**
     * A stream read is being tried at start by the thread that starts it, outside this lock (see
     * {@link EpollStarter#start}); the direction counts as busy. Guarded by this.
     */
    boolean inputTrying;
    /** As {@link #inputTrying} for a stream write. Guarded by this. */
    boolean outputTrying;
    /** An input event came while the read was being tried: its starter looks again. Guarded by this. */
    boolean inputEventWhileTrying;
    /** An output event came while the write was being tried: its starter looks again. Guarded by this. */
    boolean outputEventWhileTrying;
    /** System calls on {@link #fd} running outside this lock (tries at start). Guarded by this. */
    int syscallsOutsideLock;
    /**
     * {@link #released} was set while {@link #syscallsOutsideLock} was not 0: the last of those system calls
     * releases the descriptor, so that its number is not reused under them. Guarded by this.
     */
    boolean releaseDeferred;
    /**
     * This channel's last stream read found the receive queue empty (it would block, or took fewer bytes than it
     * asked for), and no input event has come since. A read started now (in practice from the callback of the read
     * that drained the socket, or of the write that answered it) would then only make a system call that finds
     * nothing, so it waits for the next event instead, as an event-driven server reads only on readiness. Skipping
     * is always safe: bytes that arrive after the draining read make a new edge-triggered event, handled under this
     * lock after it, unless the peer's end of stream or an error was already reported (see {@link #inputEnded}).
     * Only an event clears it, not a poll that found nothing for this channel: a poll tells nothing about bytes that
     * came after it, and counting polls made every read after the pool's fairness poll (one per round of
     * completions) try in vain. Guarded by this, except that a read tried at start outside the lock writes it too:
     * when an input event came during that try, its starter clears it under the lock afterwards.
     */
    volatile boolean inputDrained;
    /**
     * An input event reported the peer's end of stream, a hang-up or an error. Once set, reads are always tried at
     * start: a read that took fewer bytes than it asked for may leave an end of stream behind it whose event was
     * already consumed, so no further event would come. Guarded by this.
     */
    boolean inputEnded;
    /** {@link #close()} was called. Guarded by this. */
    boolean closed;
    /**
     * {@link #fd} is released, or being released: by {@link #close()}, or because the owner was closed directly.
     * No system call on it may start once this is set. Guarded by this.
     */
    boolean released;

    /** Per-direction native scratch (addresses, iovecs, bounce buffer); used under this lock only. */
    final NativeScratch inputScratch = new NativeScratch();
    final NativeScratch outputScratch = new NativeScratch();
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

    /** The engine this channel belongs to. */
    EpollEngine engine() {
        return engine;
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
            connectedPeer = SocketDescriptors.peerOrNull(fd);
        }
        return connectedPeer;
    }

    @Override
    public synchronized SocketAddress localAddress() throws IOException {
        checkOpen();
        return SocketDescriptors.localAddress(fd);
    }

    @Override
    public synchronized SocketAddress remoteAddress() throws IOException {
        checkOpen();
        return kind == Kind.SERVER ? null : SocketDescriptors.remoteAddress(fd);
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
    public synchronized <T> void setOption(SocketOption<T> name, T value) throws IOException {
        checkOpen();
        SocketDescriptors.setOption(fd, name, value);
    }

    @Override
    public synchronized <T> T getOption(SocketOption<T> name) throws IOException {
        checkOpen();
        return SocketDescriptors.getOption(fd, name);
    }

    /**
     * Whether the user closed the registered JDK channel directly. Then the engine must release its descriptor
     * and fail the channel's operations ({@link EpollReadiness#retireIfOwnerClosed}). Lock held.
     */
    boolean ownerClosed() {
        return owner != null && !owner.isOpen();
    }

    /**
     * Marks the channel closed and its descriptor released under its lock (so no system call on the descriptor
     * is running or can start), releases a transmission's file descriptor, removes the channel from the epoll
     * set and the table, closes the engine's descriptor, and closes the JDK channel the user registered, if
     * any. Pending requests stay in their slots for the core's cancel.
     */
    @Override
    public void close() throws IOException {
        boolean release;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            releaseTransmitSource();
            release = !released && !deferRelease(); // released already if the owner's direct close was noticed
            released = true;
        }
        IOException failure = release ? releaseDescriptor() : null;
        if (owner != null) {
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

    /**
     * Lock held, {@link #released} being set: whether a system call outside the lock still runs on the descriptor,
     * in which case the last one releases it ({@link #releaseDeferred}) and the caller must not.
     */
    boolean deferRelease() {
        if (syscallsOutsideLock == 0) {
            return false;
        }
        releaseDeferred = true;
        return true;
    }

    /**
     * Removes the channel from the epoll set and the table and closes the engine's descriptor. Called once, by
     * whoever set {@link #released}: under the lock or after it, as no system call on the descriptor can start
     * then.
     *
     * @return the failure to report, or null
     */
    IOException releaseDescriptor() {
        IOException failure = engine.deregister(this);
        int result = IoNative.close(fd);
        if (result < 0) {
            failure = addTo(failure, Errors.newException("close", result));
        }
        return failure;
    }

    @Override
    public synchronized boolean isClosed() {
        return closed || released || ownerClosed();
    }

    /** Lock held: throws unless system calls on the descriptor may be made (noticing an owner's close). */
    private void checkOpen() throws ClosedChannelException {
        if (released || engine.readiness().retireIfOwnerClosed(this, false)) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        return "epoll " + kind.name().toLowerCase(Locale.ROOT) + " channel fd " + fd;
    }
}
