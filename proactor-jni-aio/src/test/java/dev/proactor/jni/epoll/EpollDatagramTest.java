package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.AllocationCounter;
import dev.proactor.jni.NativeTestSupport;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Datagrams inside the epoll engine, beyond the conformance suite: a dual-stack JDK channel talking to IPv4,
 * heap buffers around the 64 KiB block, the IPv4 socket's refusal of IPv6 targets, and no allocation per
 * receive and send on direct buffers once warmed up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpollDatagramTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private EngineDriver driver;

    @BeforeEach
    void setUp() throws Exception {
        NativeTestSupport.assumeEpoll();
        driver = new EngineDriver();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (driver != null) {
            driver.close();
        }
    }

    private static void nothing() {
    }

    private IoRequest receive(EngineChannel channel, ByteBuffer buffer) throws Exception {
        IoRequest request = new IoRequest(this).prepare(OpKind.RECEIVE, channel).buffer(buffer);
        driver.run(request, EpollDatagramTest::nothing);
        return request;
    }

    private IoRequest send(EngineChannel channel, ByteBuffer buffer, SocketAddress target) throws Exception {
        IoRequest request = new IoRequest(this).prepare(OpKind.SEND, channel).buffer(buffer).address(target);
        driver.run(request, EpollDatagramTest::nothing);
        return request;
    }

    /** A JDK IPv6 datagram channel bound to the wildcard, or the test skipped where there is no IPv6. */
    private static DatagramChannel dualStack() throws Exception {
        try {
            DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET6);
            try {
                return channel.bind(new InetSocketAddress(InetAddress.getByName("::"), 0));
            } catch (java.io.IOException e) {
                channel.close();
                throw e;
            }
        } catch (UnsupportedOperationException | java.io.IOException e) {
            assumeTrue(false, () -> "no IPv6 here: " + e);
            throw e;
        }
    }

    @Test
    void aDualStackJdkChannelTalksToIpv4() throws Exception {
        try (DatagramChannel dual = dualStack();
                DatagramChannel v4 = DatagramChannel.open(StandardProtocolFamily.INET)) {
            v4.bind(new InetSocketAddress(LOOPBACK, 0));
            EngineChannel channel = driver.engine.register(dual);
            assertEquals(dual.getLocalAddress(), channel.localAddress());
            assertNull(channel.remoteAddress());

            IoRequest sent = send(channel, ByteBuffer.wrap(new byte[] {1, 2, 3}), v4.getLocalAddress());
            assertNull(sent.error());
            assertEquals(3, sent.bytes());
            ByteBuffer got = ByteBuffer.allocate(8);
            v4.configureBlocking(true);
            InetSocketAddress from = (InetSocketAddress) v4.receive(got);
            assertEquals(3, got.position());
            assertEquals(((InetSocketAddress) dual.getLocalAddress()).getPort(), from.getPort());

            v4.send(ByteBuffer.wrap(new byte[] {9}), new InetSocketAddress(LOOPBACK, from.getPort()));
            IoRequest received = receive(channel, ByteBuffer.allocateDirect(8));
            assertNull(received.error());
            assertEquals(1, received.bytes());
            assertInstanceOf(Inet4Address.class, ((InetSocketAddress) received.peer()).getAddress(),
                    "an IPv4-mapped source decodes to IPv4, as the JDK's");
            assertEquals(v4.getLocalAddress(), received.peer());
        }
    }

    @Test
    void anIpv4SocketRefusesIpv6TargetsAsTheJdkDoes() throws Exception {
        EngineChannel channel = driver.engine.openDatagram(new InetSocketAddress(LOOPBACK, 0));
        IoRequest request = send(channel, ByteBuffer.allocate(1),
                new InetSocketAddress(InetAddress.getByName("::1"), 9));
        assertInstanceOf(UnsupportedAddressTypeException.class, request.error());
    }

    @Test
    void heapBuffersGoThroughTheBlockUpToTheLargestDatagram() throws Exception {
        EngineChannel a = driver.engine.openDatagram(new InetSocketAddress(LOOPBACK, 0));
        EngineChannel b = driver.engine.openDatagram(new InetSocketAddress(LOOPBACK, 0));
        byte[] data = new byte[65_507]; // the largest UDP payload over IPv4
        new Random(3).nextBytes(data);
        IoRequest sent = send(a, ByteBuffer.wrap(data), b.localAddress());
        assertNull(sent.error());
        assertEquals(data.length, sent.bytes());
        ByteBuffer big = ByteBuffer.allocate(100_000); // more room than the block
        IoRequest received = receive(b, big);
        assertNull(received.error());
        assertEquals(data.length, received.bytes());
        assertArrayEquals(data, Arrays.copyOf(big.array(), data.length));
        assertEquals(a.localAddress(), received.peer());

        IoRequest tooBig = send(a, ByteBuffer.allocate(70_000), b.localAddress());
        assertInstanceOf(IOException.class, tooBig.error());
        IoRequest tooBigDirect = send(a, ByteBuffer.allocateDirect(70_000), b.localAddress());
        assertInstanceOf(IOException.class, tooBigDirect.error());
    }

    @Test
    void directBuffersAllocateNothingPerReceiveAndSendOnceWarm() throws Exception {
        AllocationCounter.assumeAvailable();
        EngineChannel a = driver.engine.openDatagram(new InetSocketAddress(LOOPBACK, 0));
        EngineChannel b = driver.engine.openDatagram(new InetSocketAddress(LOOPBACK, 0));
        SocketAddress target = b.localAddress();
        ByteBuffer out = ByteBuffer.allocateDirect(64);
        ByteBuffer in = ByteBuffer.allocateDirect(64);
        IoRequest sending = new IoRequest(this);
        IoRequest receiving = new IoRequest(this);
        Runnable idle = EpollDatagramTest::nothing;
        int warmUp = 20_000;
        int measured = 20_000;
        long before = 0;
        SocketAddress firstPeer = null;
        for (int i = 0; i < warmUp + measured; i++) {
            if (i == warmUp) {
                firstPeer = receiving.peer();
                before = AllocationCounter.allocatedBytes();
            }
            out.clear();
            driver.run(sending.prepare(OpKind.SEND, a).buffer(out).address(target), idle);
            in.clear();
            driver.run(receiving.prepare(OpKind.RECEIVE, b).buffer(in), idle);
        }
        long perOperation = (AllocationCounter.allocatedBytes() - before) / (2L * measured);
        assertNull(sending.error());
        assertNull(receiving.error());
        assertEquals(64, receiving.bytes());
        assertEquals(0, perOperation, "bytes allocated per direct receive or send");
        assertSame(firstPeer, receiving.peer(), "the sender's address is decoded once");
    }
}
