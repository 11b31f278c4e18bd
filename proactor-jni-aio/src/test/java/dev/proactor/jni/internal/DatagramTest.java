package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.NativeTestSupport;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * sendto/recvfrom between native UDP sockets: the sender's address decoded (and its decoding reused),
 * truncation with {@code MSG_TRUNC}, empty datagrams, connected sends, and IPv4-mapped targets on a dual-stack
 * IPv6 socket.
 */
class DatagramTest {

    private static final long RECEIVER = 5;

    private final List<Integer> sockets = new ArrayList<>();
    private InetAddress loopback;

    @BeforeEach
    void requireEpoll() throws Exception {
        NativeTestSupport.assumeEpoll();
        loopback = InetAddress.getByName("127.0.0.1");
    }

    @AfterEach
    void closeSockets() {
        for (int fd : sockets) {
            IoNative.close(fd);
        }
    }

    private int open(InetAddress address) {
        int fd = TestSockets.open(address, SocketNative.SOCK_DGRAM);
        sockets.add(fd);
        return fd;
    }

    private static ByteBuffer direct(byte... bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    /** Waits until {@code fd} has a datagram (level-triggered), so the next recvfrom does not say EAGAIN. */
    private static void awaitReadable(int fd) {
        try (EpollLoop loop = new EpollLoop()) {
            loop.add(fd, EpollNative.EPOLLIN, RECEIVER);
            loop.await(RECEIVER);
        }
    }

    @Test
    void datagramArrivesWithItsSender() throws Exception {
        int receiver = open(loopback);
        int sender = open(loopback);
        InetSocketAddress receiverAddress = TestSockets.bindEphemeral(receiver, loopback);
        InetSocketAddress senderAddress = TestSockets.bindEphemeral(sender, loopback);
        assertEquals(3, SocketNative.sendto(sender, direct((byte) 1, (byte) 2, (byte) 3),
                new Sockaddr().set(receiverAddress)));

        awaitReadable(receiver);
        ByteBuffer received = ByteBuffer.allocateDirect(16);
        Sockaddr from = new Sockaddr();
        assertEquals(3, SocketNative.recvfrom(receiver, received, from));
        assertEquals(senderAddress, from.get());
        assertEquals(3, received.position());
        assertEquals(2, received.get(1));
        int again = SocketNative.recvfrom(receiver, received, null);
        assertTrue(again == -ErrnoNative.EAGAIN, () -> "recvfrom on an empty socket: " + again);
    }

    @Test
    void msgTruncReportsTheWholeLengthStoresWhatFitsAndDiscardsTheRest() {
        int receiver = open(loopback);
        int sender = open(loopback);
        Sockaddr target = new Sockaddr().set(TestSockets.bindEphemeral(receiver, loopback));
        byte[] big = new byte[100];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        assertEquals(100, SocketNative.sendto(sender, direct(big), target));
        assertEquals(2, SocketNative.sendto(sender, direct((byte) 7, (byte) 8), target));

        awaitReadable(receiver);
        ByteBuffer small = ByteBuffer.allocateDirect(10);
        assertEquals(100, SocketNative.recvfrom(receiver, small, SocketNative.MSG_TRUNC, null), "the real length");
        assertEquals(10, small.position(), "only what fits is stored");
        byte[] stored = new byte[10];
        small.flip().get(stored);
        assertArrayEquals(Arrays.copyOf(big, 10), stored);

        ByteBuffer next = ByteBuffer.allocateDirect(10);
        assertEquals(2, SocketNative.recvfrom(receiver, next, SocketNative.MSG_TRUNC, null),
                "the excess of the first datagram is gone, not delivered");
        assertEquals(7, next.get(0));
    }

    @Test
    void emptyDatagramsAreSentAndReceived() {
        int receiver = open(loopback);
        int sender = open(loopback);
        Sockaddr target = new Sockaddr().set(TestSockets.bindEphemeral(receiver, loopback));
        InetSocketAddress senderAddress = TestSockets.bindEphemeral(sender, loopback);
        assertEquals(0, SocketNative.sendto(sender, ByteBuffer.allocateDirect(0), target));

        awaitReadable(receiver);
        Sockaddr from = new Sockaddr();
        ByteBuffer buffer = ByteBuffer.allocateDirect(4);
        assertEquals(0, SocketNative.recvfrom(receiver, buffer, SocketNative.MSG_TRUNC, from));
        assertEquals(0, buffer.position());
        assertEquals(senderAddress, from.getCached());
    }

    @Test
    void aSendWithoutTargetNeedsAConnectedSocket() {
        int receiver = open(loopback);
        int sender = open(loopback);
        InetSocketAddress receiverAddress = TestSockets.bindEphemeral(receiver, loopback);
        assertEquals(-ErrnoNative.EDESTADDRREQ, SocketNative.sendto(sender, direct((byte) 1), null));

        assertEquals(0, SocketNative.connect(sender, new Sockaddr().set(receiverAddress)), "a UDP connect is local");
        assertEquals(1, SocketNative.sendto(sender, direct((byte) 9), null));
        awaitReadable(receiver);
        ByteBuffer buffer = ByteBuffer.allocateDirect(4);
        assertEquals(1, SocketNative.recvfrom(receiver, buffer, null));
        assertEquals(9, buffer.get(0));
    }

    @Test
    void theDecodedSenderIsReusedWhileItDoesNotChange() {
        int receiver = open(loopback);
        int first = open(loopback);
        int second = open(loopback);
        Sockaddr target = new Sockaddr().set(TestSockets.bindEphemeral(receiver, loopback));
        InetSocketAddress firstAddress = TestSockets.bindEphemeral(first, loopback);
        InetSocketAddress secondAddress = TestSockets.bindEphemeral(second, loopback);
        Sockaddr from = new Sockaddr();
        ByteBuffer buffer = ByteBuffer.allocateDirect(4);

        InetSocketAddress[] seen = new InetSocketAddress[3];
        int[] senders = {first, first, second};
        for (int i = 0; i < senders.length; i++) {
            assertEquals(1, SocketNative.sendto(senders[i], direct((byte) i), target));
            awaitReadable(receiver);
            buffer.clear();
            assertEquals(1, SocketNative.recvfrom(receiver, buffer, from));
            seen[i] = from.getCached();
        }
        assertEquals(firstAddress, seen[0]);
        assertSame(seen[0], seen[1], "same sender: the same object, nothing allocated");
        assertEquals(secondAddress, seen[2]);
        assertNotSame(seen[1], seen[2]);
    }

    @Test
    void aDualStackSocketReachesIpv4ThroughMappedAddresses() throws Exception {
        InetAddress any6 = InetAddress.getByName("::");
        int dual = open(any6);
        int v4 = open(loopback);
        int result = SocketNative.bind(dual, new Sockaddr().set(new InetSocketAddress(any6, 0)));
        assumeTrue(result == 0, () -> "cannot bind [::] here: " + result);
        int dualPort = TestSockets.localAddress(dual).getPort();
        InetSocketAddress v4Address = TestSockets.bindEphemeral(v4, loopback);

        Sockaddr to = new Sockaddr().setFor(SocketNative.AF_INET6, v4Address);
        assertEquals(SocketNative.AF_INET6, to.family(), "an IPv4 target is encoded as ::ffff:a.b.c.d");
        assertEquals(2, SocketNative.sendto(dual, direct((byte) 4, (byte) 6), to));
        awaitReadable(v4);
        Sockaddr from = new Sockaddr();
        ByteBuffer buffer = ByteBuffer.allocateDirect(4);
        assertEquals(2, SocketNative.recvfrom(v4, buffer, from));
        assertEquals(dualPort, from.get().getPort());

        // The answer arrives from a mapped address and decodes to the IPv4 address, as the JDK does.
        assertEquals(1, SocketNative.sendto(v4, direct((byte) 1),
                new Sockaddr().set(new InetSocketAddress(loopback, dualPort))));
        awaitReadable(dual);
        buffer.clear();
        assertEquals(1, SocketNative.recvfrom(dual, buffer, from));
        InetSocketAddress source = from.getCached();
        assertInstanceOf(Inet4Address.class, source.getAddress());
        assertEquals(v4Address, source);

        // A native call writing the struct invalidates the remembered encoding.
        assertEquals(SocketNative.AF_INET6, from.family());
        assertSame(to, to.setFor(SocketNative.AF_INET6, v4Address));
        assertEquals(0, SocketNative.localAddress(dual, to));
        to.setFor(SocketNative.AF_INET6, v4Address);
        assertEquals(1, SocketNative.sendto(dual, direct((byte) 2), to));
        awaitReadable(v4);
        buffer.clear();
        assertEquals(1, SocketNative.recvfrom(v4, buffer, null));
        assertEquals(2, buffer.get(0));
    }
}
