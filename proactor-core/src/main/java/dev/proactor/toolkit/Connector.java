package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Opens outgoing connections and starts a {@link Service} on each one that succeeds:
 * <pre>{@code
 * Connector connector = new Connector(demux).timeout(5, TimeUnit.SECONDS);
 * connector.connect(new InetSocketAddress("example.org", 80), Client::new,
 *         (remote, error) -> log.warn("cannot reach {}", remote, error));
 * }</pre>
 *
 * <p>A connect that does not finish within the {@link #timeout timeout} fails with
 * {@link java.nio.channels.InterruptedByTimeoutException}; with a {@link #bindAddress bind address} the socket is
 * bound to it before connecting (a local interface or port). On success the service is made by the factory and
 * {@link Service#start started} with the connected channel; on failure (refused, unreachable, timed out,
 * factory error) the socket is closed and the {@link FailureHandler} told. Exactly one of the two happens per
 * {@link #connect} call.
 *
 * <p>The settings are read at each {@link #connect}; a connector may be shared by threads once configured.
 * Callbacks run on demultiplexor threads. Completions of the connection reach the service through a small
 * forwarding handler (one virtual call more per completion), because a channel's handler is fixed when the
 * socket is opened, before the service exists.
 */
public final class Connector {

    /** Told when a connection attempt fails; runs on a demultiplexor thread (or the caller's, see below). */
    @FunctionalInterface
    public interface FailureHandler {
        void onConnectFailed(SocketAddress remote, Throwable error);
    }

    private final Demultiplexor demultiplexor;
    private volatile long timeoutNanos;
    private volatile InetSocketAddress bindAddress;

    public Connector(Demultiplexor demultiplexor) {
        this.demultiplexor = Objects.requireNonNull(demultiplexor, "demultiplexor");
    }

    /**
     * Fails attempts not connected within {@code timeout} (0, the default, waits as long as the system does).
     *
     * @throws IllegalArgumentException if negative
     */
    public Connector timeout(long timeout, TimeUnit unit) {
        if (timeout < 0) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        this.timeoutNanos = unit.toNanos(timeout);
        return this;
    }

    /** Binds each socket to {@code local} before connecting ({@code null}, the default: any). */
    public Connector bindAddress(InetSocketAddress local) {
        this.bindAddress = local;
        return this;
    }

    /**
     * Starts connecting to {@code remote}. Returns at once; the service or the failure handler is called later.
     * If the socket cannot even be opened or bound (e.g. the bind address is in use), the failure handler is
     * called on this thread before this returns.
     *
     * @throws IllegalArgumentException if {@code remote} is unresolved
     * @throws IllegalStateException    if the demultiplexor is closed
     */
    public void connect(SocketAddress remote, ServiceFactory factory, FailureHandler onFailure) {
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(onFailure, "onFailure");
        if (remote instanceof InetSocketAddress isa && isa.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address: " + remote);
        }
        if (demultiplexor.isClosed()) {
            throw new IllegalStateException("demultiplexor is closed");
        }
        Connection connection = new Connection(remote, factory, onFailure);
        AsynchChannel channel;
        try {
            channel = open(connection, remote);
        } catch (IOException | RuntimeException e) {
            onFailure.onConnectFailed(remote, e);
            return;
        }
        connection.channel = channel;
        channel.connect(remote, timeoutNanos, TimeUnit.NANOSECONDS, null);
    }

    private AsynchChannel open(Connection connection, SocketAddress remote) throws IOException {
        InetSocketAddress local = bindAddress;
        if (local == null) {
            return AsynchChannel.openSocket(demultiplexor, connection);
        }
        // The family of the remote address: a native engine connects the socket with a sockaddr of that family,
        // which a dual-stack socket (the JDK's default) would refuse for IPv4.
        SocketChannel socket = remote instanceof InetSocketAddress isa && isa.getAddress() instanceof Inet4Address
                ? SocketChannel.open(StandardProtocolFamily.INET) : SocketChannel.open();
        try {
            socket.bind(local);
            return new AsynchChannel(demultiplexor, connection, socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
