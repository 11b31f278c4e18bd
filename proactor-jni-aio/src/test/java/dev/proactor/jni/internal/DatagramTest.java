package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** sendto/recvfrom between two native UDP sockets, with the sender's address decoded. */
class DatagramTest {

    private static final long RECEIVER = 5;

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    @Test
    void datagramArrivesWithItsSender() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        int receiver = TestSockets.open(loopback, SocketNative.SOCK_DGRAM);
        int sender = TestSockets.open(loopback, SocketNative.SOCK_DGRAM);
        try (EpollLoop loop = new EpollLoop()) {
            InetSocketAddress receiverAddress = TestSockets.bindEphemeral(receiver, loopback);
            InetSocketAddress senderAddress = TestSockets.bindEphemeral(sender, loopback);
            ByteBuffer payload = ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip();
            assertEquals(3, SocketNative.sendto(sender, payload, new Sockaddr().set(receiverAddress)));

            loop.add(receiver, EpollNative.EPOLLIN, RECEIVER);
            loop.await(RECEIVER);
            ByteBuffer received = ByteBuffer.allocateDirect(16);
            Sockaddr from = new Sockaddr();
            assertEquals(3, SocketNative.recvfrom(receiver, received, from));
            assertEquals(senderAddress, from.get());
            assertEquals(3, received.position());
            assertEquals(2, received.get(1));
            int again = SocketNative.recvfrom(receiver, received, null);
            assertTrue(again == -ErrnoNative.EAGAIN, () -> "recvfrom on an empty socket: " + again);
        } finally {
            IoNative.close(sender);
            IoNative.close(receiver);
        }
    }
}
