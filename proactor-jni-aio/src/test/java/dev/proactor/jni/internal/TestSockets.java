package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Native socket set-up shared by the loopback tests. */
final class TestSockets {

    private TestSockets() {
    }

    static int family(InetAddress address) {
        return address instanceof Inet6Address ? SocketNative.AF_INET6 : SocketNative.AF_INET;
    }

    static int open(InetAddress address, int type) {
        int fd = SocketNative.socket(family(address), type, 0);
        assumeTrue(fd != -ErrnoNative.EAFNOSUPPORT, () -> "no " + address.getClass().getSimpleName() + " support");
        assertTrue(fd >= 0, () -> "socket: " + fd);
        return fd;
    }

    /** Binds {@code fd} to an ephemeral port of {@code address}, skipping the test if the address is missing. */
    static InetSocketAddress bindEphemeral(int fd, InetAddress address) {
        Sockaddr sockaddr = new Sockaddr().set(new InetSocketAddress(address, 0));
        int result = SocketNative.bind(fd, sockaddr);
        assumeTrue(result != -ErrnoNative.EADDRNOTAVAIL, () -> address + " is not configured here");
        assertEquals(0, result, "bind");
        return localAddress(fd);
    }

    static InetSocketAddress localAddress(int fd) {
        Sockaddr sockaddr = new Sockaddr();
        assertEquals(0, SocketNative.localAddress(fd, sockaddr), "getsockname");
        return sockaddr.get();
    }

    /** A listening non-blocking server socket on an ephemeral port. */
    static int listen(InetAddress address) {
        int server = open(address, SocketNative.SOCK_STREAM);
        assertEquals(0, SocketNative.setIntOption(server, SocketNative.SOL_SOCKET, SocketNative.SO_REUSEADDR, 1));
        bindEphemeral(server, address);
        assertEquals(0, SocketNative.listen(server, 16), "listen");
        return server;
    }
}
