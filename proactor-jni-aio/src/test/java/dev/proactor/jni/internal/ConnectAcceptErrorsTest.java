package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.Errors;
import dev.proactor.jni.NativeIoException;
import dev.proactor.jni.NativeTestSupport;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Failures of accept4 and connect come back as -errno and map to the right exceptions. */
class ConnectAcceptErrorsTest {

    private static final long CLIENT = 7;

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    @Test
    void connectToAPortNobodyListensOnIsRefused() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        // A bound but not listening TCP socket owns the port and answers SYNs with RST.
        int holder = TestSockets.open(loopback, SocketNative.SOCK_STREAM);
        InetSocketAddress target = TestSockets.bindEphemeral(holder, loopback);
        int client = TestSockets.open(loopback, SocketNative.SOCK_STREAM);
        try (EpollLoop loop = new EpollLoop()) {
            int result = SocketNative.connect(client, new Sockaddr().set(target));
            if (result == -ErrnoNative.EINPROGRESS) {
                loop.add(client, EpollNative.EPOLLOUT, CLIENT);
                int ready = loop.await(CLIENT);
                assertTrue((ready & (EpollNative.EPOLLERR | EpollNative.EPOLLHUP)) != 0, () -> "events " + ready);
                result = -SocketNative.getIntOption(client, SocketNative.SOL_SOCKET, SocketNative.SO_ERROR);
            }
            assertEquals(-ErrnoNative.ECONNREFUSED, result);
            ConnectException e = assertInstanceOf(ConnectException.class, Errors.newException("connect", result));
            assertEquals(ErrnoNative.ECONNREFUSED, ((NativeIoException) e.getCause()).errno());
        } finally {
            IoNative.close(client);
            IoNative.close(holder);
        }
    }

    @Test
    void acceptWithoutPendingConnectionIsEagain() throws Exception {
        int server = TestSockets.listen(InetAddress.getByName("127.0.0.1"));
        try {
            int result = SocketNative.accept(server, new Sockaddr());
            assertTrue(Errors.isAgain(result), () -> "accept4: " + result);
        } finally {
            IoNative.close(server);
        }
    }

    @Test
    void acceptOnANonListeningSocketIsEinval() throws Exception {
        int socket = TestSockets.open(InetAddress.getByName("127.0.0.1"), SocketNative.SOCK_STREAM);
        try {
            assertEquals(-ErrnoNative.EINVAL, SocketNative.accept(socket, null));
        } finally {
            IoNative.close(socket);
        }
    }
}
