package dev.proactor.jni.engine;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;

/**
 * The system calls of the epoll and io_uring engines' channels that ask or set something of a socket descriptor:
 * its local and peer addresses, shutdown and socket options. Stateless; each method makes its system call on the
 * descriptor it is given and maps a failure as the JDK's channels do.
 *
 * <p>The caller keeps its channel's own rules around each call: it holds the channel's lock and has checked that
 * the channel is open (so the descriptor still names the channel's socket), and it decides what a channel of
 * another kind answers.
 */
public final class SocketDescriptors {

    private SocketDescriptors() {
    }

    /**
     * The address the socket is bound to ({@code getsockname(2)}).
     *
     * @throws IOException if the system call fails
     */
    public static SocketAddress localAddress(int fd) throws IOException {
        Sockaddr address = new Sockaddr();
        Errors.check("getsockname", SocketNative.localAddress(fd, address));
        return address.get();
    }

    /**
     * The address of the connected peer ({@code getpeername(2)}), or null if the socket is not connected.
     *
     * @throws IOException if the system call fails otherwise
     */
    public static SocketAddress remoteAddress(int fd) throws IOException {
        Sockaddr address = new Sockaddr();
        int result = SocketNative.peerAddress(fd, address);
        if (result == -ErrnoNative.ENOTCONN) {
            return null;
        }
        Errors.check("getpeername", result);
        return address.get();
    }

    /**
     * The address of the connected peer, or null if it cannot be told (for the result of a datagram send without a
     * target, which has no failure to report).
     */
    public static SocketAddress peerOrNull(int fd) {
        Sockaddr address = new Sockaddr();
        return SocketNative.peerAddress(fd, address) == 0 ? address.get() : null;
    }

    /**
     * Shuts the socket down for writing ({@code shutdown(2)} with {@code SHUT_WR}).
     *
     * @param stream whether the channel is a connected stream socket
     * @throws UnsupportedOperationException if it is not
     * @throws IOException                   if the system call fails
     */
    public static void shutdownOutput(int fd, boolean stream) throws IOException {
        if (!stream) {
            throw new UnsupportedOperationException("shutdownOutput needs a connected stream socket");
        }
        Errors.check("shutdown", SocketNative.shutdown(fd, SocketNative.SHUT_WR));
    }

    /**
     * Shuts the socket down for reading ({@code shutdown(2)} with {@code SHUT_RD}).
     *
     * @param stream whether the channel is a connected stream socket
     * @throws UnsupportedOperationException if it is not
     * @throws IOException                   if the system call fails
     */
    public static void shutdownInput(int fd, boolean stream) throws IOException {
        if (!stream) {
            throw new UnsupportedOperationException("shutdownInput needs a connected stream socket");
        }
        Errors.check("shutdown", SocketNative.shutdown(fd, SocketNative.SHUT_RD));
    }

    /**
     * Sets a socket option ({@code setsockopt(2)}) of those {@link SocketOptions} maps.
     *
     * @throws UnsupportedOperationException if the option is not supported
     * @throws java.net.SocketException      if the option may only be read
     * @throws IllegalArgumentException      if the value has the wrong type or is negative
     * @throws IOException                   if the system call fails
     */
    public static <T> void setOption(int fd, SocketOption<T> name, T value) throws IOException {
        SocketOptions.Native n = SocketOptions.of(name);
        Errors.check("setsockopt", SocketNative.setIntOption(fd, n.level(), n.option(),
                SocketOptions.toNative(name, n, value)));
    }

    /**
     * Reads a socket option ({@code getsockopt(2)}) of those {@link SocketOptions} maps.
     *
     * @throws UnsupportedOperationException if the option is not supported
     * @throws IOException                   if the system call fails
     */
    public static <T> T getOption(int fd, SocketOption<T> name) throws IOException {
        SocketOptions.Native n = SocketOptions.of(name);
        int v = SocketNative.getIntOption(fd, n.level(), n.option());
        Errors.check("getsockopt", v);
        return name.type().cast(SocketOptions.fromNative(n, v));
    }
}
