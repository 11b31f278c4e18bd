package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A native server and client echo bytes over loopback, driven by one epoll set. */
class EpollEchoTest {

    private static final long SERVER = 1;
    private static final long CLIENT = 2;
    private static final long ACCEPTED = 3;

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void echoesThroughNativeSockets(String host) throws Exception {
        InetAddress loopback = InetAddress.getByName(host);
        try (EpollLoop loop = new EpollLoop()) {
            int server = TestSockets.listen(loopback);
            InetSocketAddress serverAddress = TestSockets.localAddress(server);
            int client = TestSockets.open(loopback, SocketNative.SOCK_STREAM);
            int connected = SocketNative.connect(client, new Sockaddr().set(serverAddress));
            assertTrue(connected == 0 || connected == -ErrnoNative.EINPROGRESS, () -> "connect: " + connected);
            loop.add(server, EpollNative.EPOLLIN, SERVER);
            loop.add(client, EpollNative.EPOLLOUT, CLIENT);

            assertTrue((loop.await(SERVER) & EpollNative.EPOLLIN) != 0);
            Sockaddr peer = new Sockaddr();
            int accepted = SocketNative.accept(server, peer);
            assertTrue(accepted >= 0, () -> "accept4: " + accepted);
            assertTrue((loop.await(CLIENT) & EpollNative.EPOLLOUT) != 0);
            assertEquals(0, SocketNative.getIntOption(client, SocketNative.SOL_SOCKET, SocketNative.SO_ERROR));
            assertEquals(TestSockets.localAddress(client), peer.get());
            Sockaddr clientPeer = new Sockaddr();
            assertEquals(0, SocketNative.peerAddress(client, clientPeer));
            assertEquals(serverAddress, clientPeer.get());
            assertEquals(0, SocketNative.setIntOption(client, SocketNative.IPPROTO_TCP, SocketNative.TCP_NODELAY, 1));
            assertEquals(1, SocketNative.getIntOption(client, SocketNative.IPPROTO_TCP, SocketNative.TCP_NODELAY));

            // Client gathers two buffers into one writev.
            ByteBuffer hello = direct("hello, ");
            ByteBuffer proactor = direct("proactor").asReadOnlyBuffer();
            int total = hello.remaining() + proactor.remaining();
            IovecArray gather = new IovecArray(2).addWriteSource(hello).addWriteSource(proactor);
            assertEquals(total, IoNative.writev(client, gather));
            assertEquals(0, hello.remaining() + proactor.remaining());

            // Server reads it all with read(2) and echoes it back with write(2).
            loop.modify(client, EpollNative.EPOLLIN, CLIENT);
            loop.add(accepted, EpollNative.EPOLLIN, ACCEPTED);
            ByteBuffer received = ByteBuffer.allocateDirect(64);
            while (received.position() < total) {
                loop.await(ACCEPTED);
                int n = IoNative.read(accepted, received);
                assertTrue(n > 0 || n == -ErrnoNative.EAGAIN, () -> "read: " + n);
            }
            received.flip();
            assertEquals(total, IoNative.write(accepted, received));

            // Client scatters the echo into two buffers with readv(2).
            ByteBuffer first = ByteBuffer.allocateDirect(5);
            ByteBuffer second = ByteBuffer.allocateDirect(64);
            IovecArray scatter = new IovecArray(2);
            long got = 0;
            while (got < total) {
                loop.await(CLIENT);
                scatter.clear();
                scatter.addReadTarget(first).addReadTarget(second);
                long n = IoNative.readv(client, scatter);
                assertTrue(n > 0 || n == -ErrnoNative.EAGAIN, () -> "readv: " + n);
                got += Math.max(n, 0);
            }
            assertEquals("hello", text(first));
            assertEquals(", proactor", text(second));

            // A half-close shows up as end of stream on the other side.
            assertEquals(0, SocketNative.shutdown(client, SocketNative.SHUT_WR));
            loop.await(ACCEPTED);
            assertEquals(0, IoNative.read(accepted, ByteBuffer.allocateDirect(8)));

            assertEquals(0, IoNative.close(accepted));
            assertEquals(0, IoNative.close(client));
            assertEquals(0, IoNative.close(server));
        }
    }

    private static ByteBuffer direct(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    private static String text(ByteBuffer buffer) {
        buffer.flip();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
