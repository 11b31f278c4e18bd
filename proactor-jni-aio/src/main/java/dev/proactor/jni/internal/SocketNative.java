package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Natives and constants of {@code socket.c}: non-blocking, close-on-exec IPv4/IPv6 sockets.
 *
 * <p>All calls return {@code >= 0} or {@code -errno}. Socket addresses are passed as {@link Sockaddr}
 * blocks in native memory; the {@code long}-address forms are unchecked (see the package documentation).
 */
public final class SocketNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    public static final int AF_INET = NativeConstants.intValue("AF_INET");
    public static final int AF_INET6 = NativeConstants.intValue("AF_INET6");
    public static final int SOCK_STREAM = NativeConstants.intValue("SOCK_STREAM");
    public static final int SOCK_DGRAM = NativeConstants.intValue("SOCK_DGRAM");
    public static final int SOL_SOCKET = NativeConstants.intValue("SOL_SOCKET");
    public static final int SO_REUSEADDR = NativeConstants.intValue("SO_REUSEADDR");
    public static final int SO_REUSEPORT = NativeConstants.intValue("SO_REUSEPORT");
    public static final int SO_ERROR = NativeConstants.intValue("SO_ERROR");
    public static final int SO_KEEPALIVE = NativeConstants.intValue("SO_KEEPALIVE");
    public static final int SO_RCVBUF = NativeConstants.intValue("SO_RCVBUF");
    public static final int SO_SNDBUF = NativeConstants.intValue("SO_SNDBUF");
    public static final int SO_BROADCAST = NativeConstants.intValue("SO_BROADCAST");
    public static final int IPPROTO_TCP = NativeConstants.intValue("IPPROTO_TCP");
    public static final int IPPROTO_UDP = NativeConstants.intValue("IPPROTO_UDP");
    public static final int IPPROTO_IPV6 = NativeConstants.intValue("IPPROTO_IPV6");
    public static final int TCP_NODELAY = NativeConstants.intValue("TCP_NODELAY");
    public static final int TCP_KEEPIDLE = NativeConstants.intValue("TCP_KEEPIDLE");
    public static final int TCP_KEEPINTVL = NativeConstants.intValue("TCP_KEEPINTVL");
    public static final int TCP_KEEPCNT = NativeConstants.intValue("TCP_KEEPCNT");
    public static final int TCP_QUICKACK = NativeConstants.intValue("TCP_QUICKACK");
    public static final int SO_INCOMING_NAPI_ID = NativeConstants.intValue("SO_INCOMING_NAPI_ID");
    public static final int IPV6_V6ONLY = NativeConstants.intValue("IPV6_V6ONLY");
    public static final int SHUT_RD = NativeConstants.intValue("SHUT_RD");
    public static final int SHUT_WR = NativeConstants.intValue("SHUT_WR");
    public static final int SHUT_RDWR = NativeConstants.intValue("SHUT_RDWR");
    public static final int MSG_PEEK = NativeConstants.intValue("MSG_PEEK");
    public static final int MSG_TRUNC = NativeConstants.intValue("MSG_TRUNC");

    private SocketNative() {
    }

    /** {@code socket(2)} with {@code SOCK_NONBLOCK | SOCK_CLOEXEC} added to {@code type}. */
    public static native int socket(int domain, int type, int protocol);

    /** {@code bind(2)}; unchecked. */
    public static native int bind(int fd, long sockaddrAddress, int sockaddrLength);

    /** {@code listen(2)}; the kernel caps {@code backlog} at {@code net.core.somaxconn}. */
    public static native int listen(int fd, int backlog);

    /** {@code connect(2)}; {@code -EINPROGRESS}: wait for {@code EPOLLOUT}, then read {@code SO_ERROR}. Unchecked. */
    public static native int connect(int fd, long sockaddrAddress, int sockaddrLength);

    /** {@code accept4(2)}, non-blocking and close-on-exec; peer address written unless the address is 0. Unchecked. */
    public static native int accept(int fd, long peerAddress, int peerCapacity);

    /** {@code recvfrom(2)}; the sender is written unless {@code fromAddress} is 0. Unchecked. */
    public static native int recvfrom(int fd, long address, int length, int flags, long fromAddress, int fromCapacity);

    /** {@code sendto(2)} with {@code MSG_NOSIGNAL}; to the connected peer when {@code toAddress} is 0. Unchecked. */
    public static native int sendto(int fd, long address, int length, int flags, long toAddress, int toLength);

    /**
     * {@code recvmsg(2)} with {@code flags} (e.g. {@code MSG_DONTWAIT}) into {@code count} iovecs at
     * {@code iovAddress}, no address or control data; unchecked.
     */
    public static native long recvIov(int fd, long iovAddress, int count, int flags);

    /**
     * {@code sendmsg(2)} with {@code flags | MSG_NOSIGNAL} from {@code count} iovecs at {@code iovAddress};
     * unchecked.
     */
    public static native long sendIov(int fd, long iovAddress, int count, int flags);

    /**
     * {@code recv(2)} on a connected socket; unchecked. Sockets are read with recv/send rather than read/write:
     * the socket calls skip the file layer (position lock, access checks and notifications) that read/write go
     * through, which measured as about 3 % of an echo server's CPU.
     *
     * @return bytes read, 0 at end of stream, or {@code -errno}
     */
    public static int recv(int fd, long address, int length) {
        return recvfrom(fd, address, length, 0, 0, 0);
    }

    /** {@code send(2)} with {@code MSG_NOSIGNAL} to the connected peer; unchecked. See {@link #recv}. */
    public static int send(int fd, long address, int length) {
        return sendto(fd, address, length, 0, 0, 0);
    }

    /**
     * Scatters into the read targets of {@code iovecs} with {@code recvmsg(2)} and advances their positions.
     *
     * @return bytes read, 0 at end of stream, or {@code -errno}
     * @throws IllegalArgumentException if the array holds a write source or nothing
     */
    public static long recv(int fd, IovecArray iovecs) {
        return iovecs.transfer(fd, true, (f, address, count) -> recvIov(f, address, count, 0));
    }

    /**
     * Gathers from the write sources of {@code iovecs} with {@code sendmsg(2)} and advances their positions.
     *
     * @return bytes written or {@code -errno}
     * @throws IllegalArgumentException if the array holds a read target or nothing
     */
    public static long send(int fd, IovecArray iovecs) {
        return iovecs.transfer(fd, false, (f, address, count) -> sendIov(f, address, count, 0));
    }

    /** {@code shutdown(2)} with {@link #SHUT_RD}, {@link #SHUT_WR} or {@link #SHUT_RDWR}. */
    public static native int shutdown(int fd, int how);

    /** {@code setsockopt(2)} of an int-valued option, e.g. {@link #SOL_SOCKET}/{@link #SO_REUSEADDR}. */
    public static native int setIntOption(int fd, int level, int option, int value);

    /** The option's value (non-negative options only, e.g. {@code SO_ERROR}) or {@code -errno}. */
    public static native int getIntOption(int fd, int level, int option);

    /** {@code getsockname(2)}; returns the address length or {@code -errno}. Unchecked. */
    public static native int localAddress(int fd, long sockaddrAddress, int capacity);

    /** {@code getpeername(2)}; returns the address length or {@code -errno}. Unchecked. */
    public static native int peerAddress(int fd, long sockaddrAddress, int capacity);

    /** The {@code fdVal} field of a JDK channel, read through JNI; {@code -EOPNOTSUPP} if it has none. */
    private static native int channelFd(Object channel);

    /** Binds to the address held by {@code address}. */
    public static int bind(int fd, Sockaddr address) {
        int result = bind(fd, address.address(), address.length());
        Reference.reachabilityFence(address);
        return result;
    }

    /** Starts connecting to the address held by {@code address}. */
    public static int connect(int fd, Sockaddr address) {
        int result = connect(fd, address.address(), address.length());
        Reference.reachabilityFence(address);
        return result;
    }

    /**
     * Accepts a connection.
     *
     * @param peer receives the peer's address; may be null
     * @return the new non-blocking descriptor or {@code -errno}
     */
    public static int accept(int fd, Sockaddr peer) {
        int result = peer == null ? accept(fd, 0, 0) : accept(fd, peer.prepareForOutput(), Sockaddr.CAPACITY);
        Reference.reachabilityFence(peer);
        return result;
    }

    /**
     * Receives into {@code destination}'s remaining space and advances its position.
     *
     * @param from receives the sender's address; may be null
     * @return bytes received or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer
     */
    public static int recvfrom(int fd, ByteBuffer destination, Sockaddr from) {
        return recvfrom(fd, destination, 0, from);
    }

    /**
     * Receives into {@code destination}'s remaining space with {@code flags} and advances its position by the
     * bytes stored. With {@link #MSG_TRUNC} on a datagram socket the result is the datagram's real length, which
     * may exceed what was stored (the rest of the datagram is discarded either way).
     *
     * @param from receives the sender's address; may be null
     * @return bytes received (see {@link #MSG_TRUNC}) or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer
     * @throws IllegalStateException as {@link DirectBuffers#checkRange}
     */
    public static int recvfrom(int fd, ByteBuffer destination, int flags, Sockaddr from) {
        long base = DirectBuffers.writableAddress(destination);
        int position = destination.position();
        int limit = destination.limit();
        DirectBuffers.checkRange(destination, position, limit);
        long address = base + position;
        int room = limit - position;
        int result = recvfrom(fd, address, room, flags, from);
        Reference.reachabilityFence(destination);
        if (result > 0) {
            destination.position(position + Math.min(result, room));
        }
        return result;
    }

    /**
     * {@code recvfrom(2)} into {@code length} bytes at {@code address}, which is unchecked (see the package
     * documentation); the sender's address goes to {@code from}.
     *
     * @param from receives the sender's address; may be null
     * @return bytes received (with {@link #MSG_TRUNC}: the datagram's real length) or {@code -errno}
     */
    public static int recvfrom(int fd, long address, int length, int flags, Sockaddr from) {
        int result = from == null
                ? recvfrom(fd, address, length, flags, 0, 0)
                : recvfrom(fd, address, length, flags, from.prepareForOutput(), Sockaddr.CAPACITY);
        Reference.reachabilityFence(from);
        return result;
    }

    /**
     * Sends {@code source}'s remaining bytes and advances its position.
     *
     * @param to the destination; null to use the connected peer
     * @return bytes sent or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not direct
     * @throws IllegalStateException as {@link DirectBuffers#checkRange}
     */
    public static int sendto(int fd, ByteBuffer source, Sockaddr to) {
        long base = DirectBuffers.address(source);
        int position = source.position();
        int limit = source.limit();
        DirectBuffers.checkRange(source, position, limit);
        long address = base + position;
        int result = sendto(fd, address, limit - position, 0, to);
        Reference.reachabilityFence(source);
        if (result > 0) {
            source.position(position + result);
        }
        return result;
    }

    /**
     * {@code sendto(2)} with {@code MSG_NOSIGNAL} of {@code length} bytes at {@code address}, which is unchecked
     * (see the package documentation).
     *
     * @param to the destination; null to use the connected peer ({@code -EDESTADDRREQ} on an unconnected
     *     datagram socket)
     * @return bytes sent or {@code -errno}
     * @throws IllegalArgumentException if {@code to} holds no address
     */
    public static int sendto(int fd, long address, int length, int flags, Sockaddr to) {
        int result = to == null
                ? sendto(fd, address, length, flags, 0, 0)
                : sendto(fd, address, length, flags, to.address(), to.length());
        Reference.reachabilityFence(to);
        return result;
    }

    /** Writes the socket's local address into {@code out}; returns 0 or {@code -errno}. */
    public static int localAddress(int fd, Sockaddr out) {
        int result = localAddress(fd, out.prepareForOutput(), Sockaddr.CAPACITY);
        Reference.reachabilityFence(out);
        return result < 0 ? result : 0;
    }

    /** Writes the socket's peer address into {@code out}; returns 0 or {@code -errno}. */
    public static int peerAddress(int fd, Sockaddr out) {
        int result = peerAddress(fd, out.prepareForOutput(), Sockaddr.CAPACITY);
        Reference.reachabilityFence(out);
        return result < 0 ? result : 0;
    }

    /**
     * The descriptor of an open JDK {@link SocketChannel}, {@link ServerSocketChannel} or
     * {@link DatagramChannel}. The channel still owns it: do not close it natively, and do not keep using the
     * number, which the channel's close frees for reuse; for anything that may outlive a check of
     * {@code isOpen()}, use a {@link FileNative#duplicate(int) duplicate} made while the channel is open.
     *
     * <p>Why JNI: the number sits in a private field of {@code sun.nio.ch} classes, and reflection on it
     * needs {@code --add-opens} since Java 17; JNI field access is not subject to module checks.
     *
     * @throws IllegalArgumentException if the channel is closed or of another kind or implementation
     */
    public static int fdOf(NetworkChannel channel) {
        if (!(channel instanceof SocketChannel || channel instanceof ServerSocketChannel
                || channel instanceof DatagramChannel)) {
            throw new IllegalArgumentException("not a JDK socket, server socket or datagram channel: " + channel);
        }
        if (!channel.isOpen()) {
            throw new IllegalArgumentException("channel is closed: " + channel);
        }
        int fd = channelFd(channel);
        if (fd < 0) {
            throw new IllegalArgumentException(channel.getClass().getName() + " does not keep its descriptor in"
                    + " an int field fdVal (not the JDK's implementation?)");
        }
        return fd;
    }
}
