package dev.proactor.jni.engine;

import static dev.proactor.jni.engine.CloseFailures.closeQuietly;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The sockets the epoll and io_uring engines open or take over: makes the native socket (created, bound and
 * listening as asked, or duplicated from a JDK channel) and hands its descriptor to the engine, which makes its own
 * channel of it with a {@link ChannelFactory}. A descriptor whose channel cannot be made is closed, and the failure
 * rethrown with a failure of that close suppressed in it.
 *
 * <p>Stateless and thread-safe: any thread may open or register, as the engines' {@code Engine} methods allow.
 */
public final class EngineSockets {

    /**
     * The listen backlog of a server opened with a backlog of 0 or less: the JDK's for {@code ServerSocketChannel.bind}
     * (the {@code nio} engine's), so that 0 means the same on every engine.
     */
    private static final int DEFAULT_BACKLOG = 50;

    /** Makes an engine's channel of a descriptor the engine owns from now on. */
    @FunctionalInterface
    public interface ChannelFactory<C> {

        /**
         * @param fd     the descriptor, closed by the caller if this throws
         * @param family the socket's address family ({@code AF_INET} or {@code AF_INET6}) for a datagram socket or a
         *               registered JDK socket (a dual-stack one needs IPv4 targets mapped), else 0
         * @throws IOException if the channel cannot be made (e.g. the engine is closed)
         */
        C make(int fd, int family) throws IOException;
    }

    private EngineSockets() {
    }

    /**
     * Takes over a JDK {@link SocketChannel}, {@link ServerSocketChannel} or {@link DatagramChannel}: makes it
     * non-blocking and gives {@code factory} the engine's own duplicate of its descriptor, with the family of its
     * socket.
     *
     * @param engine the engine's name, for the message of a channel of another type
     * @throws IllegalArgumentException if the channel is of another type
     * @throws ClosedChannelException   if the channel was closed
     * @throws IOException              if a system call fails, or as {@code factory} throws
     */
    public static <C> C register(Channel channel, String engine, ChannelFactory<C> factory) throws IOException {
        if (!(channel instanceof SocketChannel) && !(channel instanceof ServerSocketChannel)
                && !(channel instanceof DatagramChannel)) {
            throw new IllegalArgumentException("the " + engine + " engine runs SocketChannel, ServerSocketChannel and "
                    + "DatagramChannel, not " + (channel == null ? "null" : channel.getClass().getName()));
        }
        ((SelectableChannel) channel).configureBlocking(false);
        int fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)",
                FileNative.duplicate(SocketNative.fdOf((NetworkChannel) channel)));
        try {
            if (!channel.isOpen()) {
                // Closed during the dup: the number may already have named another socket. Closing is one-way,
                // so open now means it named this channel's socket when duplicated.
                throw new ClosedChannelException();
            }
            // The family of a JDK socket (AF_INET6 when dual-stack) decides how IPv4 targets are encoded.
            Sockaddr local = new Sockaddr();
            Errors.check("getsockname", SocketNative.localAddress(fd, local)); // unbound: the family only
            return factory.make(fd, local.family());
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    /**
     * Opens a native stream socket for a connect, of the family of {@code remoteHint} (IPv4 when it is null or not
     * IPv6).
     *
     * @throws IOException if {@code socket(2)} fails, or as {@code factory} throws
     */
    public static <C> C openSocket(SocketAddress remoteHint, ChannelFactory<C> factory) throws IOException {
        int fd = Errors.check("socket", SocketNative.socket(familyOf(remoteHint), SocketNative.SOCK_STREAM, 0));
        return makeOrClose(fd, 0, factory);
    }

    /**
     * Opens a native stream socket with {@code SO_REUSEADDR}, bound to {@code local} ({@code null}: the IPv4
     * wildcard, any port) and listening with {@code backlog} (0 or less: 50, as the JDK).
     *
     * @throws java.nio.channels.UnsupportedAddressTypeException if {@code local} is not an {@link InetSocketAddress}
     * @throws java.nio.channels.UnresolvedAddressException      if it is unresolved
     * @throws IOException if a system call fails (an address in use: {@link java.net.BindException}), or as
     *                     {@code factory} throws
     */
    public static <C> C openServer(SocketAddress local, int backlog, ChannelFactory<C> factory) throws IOException {
        InetSocketAddress address = local == null ? new InetSocketAddress(0) : SocketAddresses.inet(local);
        int fd = Errors.check("socket", SocketNative.socket(familyOf(address), SocketNative.SOCK_STREAM, 0));
        try {
            Errors.check("setsockopt(SO_REUSEADDR)",
                    SocketNative.setIntOption(fd, SocketNative.SOL_SOCKET, SocketNative.SO_REUSEADDR, 1));
            Errors.check("bind", SocketNative.bind(fd, new Sockaddr().set(address)));
            Errors.check("listen", SocketNative.listen(fd, backlog > 0 ? backlog : DEFAULT_BACKLOG));
            return factory.make(fd, 0);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    /**
     * Opens a native UDP socket of the address's family (IPv4 unless it is an IPv6 address, as for servers) bound to
     * {@code local} ({@code null}: the IPv4 wildcard, any port). Without {@code SO_REUSEADDR}, so an address in use
     * fails with {@link java.net.BindException}.
     *
     * @throws java.nio.channels.UnsupportedAddressTypeException if {@code local} is not an {@link InetSocketAddress}
     * @throws java.nio.channels.UnresolvedAddressException      if it is unresolved
     * @throws IOException if a system call fails, or as {@code factory} throws
     */
    public static <C> C openDatagram(SocketAddress local, ChannelFactory<C> factory) throws IOException {
        InetSocketAddress address = local == null ? new InetSocketAddress(0) : SocketAddresses.inet(local);
        int family = familyOf(address);
        int fd = Errors.check("socket", SocketNative.socket(family, SocketNative.SOCK_DGRAM, 0));
        try {
            Errors.check("bind", SocketNative.bind(fd, new Sockaddr().set(address)));
            return factory.make(fd, family);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    /** {@code AF_INET6} for an IPv6 socket address, else (null included) {@code AF_INET}. */
    private static int familyOf(SocketAddress address) {
        boolean ipv6 = address instanceof InetSocketAddress
                && ((InetSocketAddress) address).getAddress() instanceof Inet6Address;
        return ipv6 ? SocketNative.AF_INET6 : SocketNative.AF_INET;
    }

    private static <C> C makeOrClose(int fd, int family, ChannelFactory<C> factory) throws IOException {
        try {
            return factory.make(fd, family);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }
}
