package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractConformanceTest.await;
import static dev.proactor.conformance.AbstractConformanceTest.open;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.Completions.Completion;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.OpKind;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.NotYetConnectedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The datagram conformance suite: receive and send on bound, connected and wrapped datagram channels over
 * loopback, truncation, empty datagrams, cancel and close. A concrete subclass names its
 * engine ({@link EngineUnderTest}).
 *
 * <p>UDP may lose datagrams, but not on loopback with the socket buffers far from full: the echo test keeps at
 * most one datagram per sender in flight (ping-pong), so every datagram must be accounted for. Waits are
 * bounded only as hang guards; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class DatagramConformanceTest {

    /** Row {@code DATAGRAMS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.DATAGRAMS, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @TempDir
    Path dir;

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(LOOPBACK, port);
    }

    // ------------------------------------------------------------------------------------------ echo

    /** Echoes each datagram to its sender: one receive, then its send, then the next receive. */
    private static final class Echo implements AsynchHandler {
        private final ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        private final Queue<String> failures;
        final AtomicInteger received = new AtomicInteger();
        AsynchChannel ch;

        Echo(Queue<String> failures) {
            this.failures = failures;
        }

        void start() {
            ch.receive(buf);
        }

        @Override
        public void onReceiveCompleted(OpReceive op) {
            if (!op.isSuccess()) {
                if (ch.isOpen()) {
                    failures.add("echo receive: " + op.getError());
                }
                return;
            }
            received.incrementAndGet(); // before the echo leaves: final once every sender saw its last echo
            buf.flip();
            ch.send(buf, op.getSourceAddress());
        }

        @Override
        public void onSendCompleted(OpSend op) {
            if (!op.isSuccess()) {
                failures.add("echo send: " + op.getError());
                return;
            }
            buf.clear();
            ch.receive(buf);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("no reads on a datagram channel");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("no writes on a datagram channel");
        }
    }

    /**
     * Sends numbered datagrams of random size with a checksum, one at a time, and checks each echo: its number,
     * its content, and that it came from the echo server.
     */
    private static final class Sender implements AsynchHandler {
        private final int id;
        private final int count;
        private final SocketAddress target; // null: the channel is connected
        private final SocketAddress server;
        private final Queue<String> failures;
        private final CountDownLatch done;
        private final Random random;
        private final ByteBuffer in;
        private int next;
        AsynchChannel ch;

        Sender(int id, int count, SocketAddress target, SocketAddress server, Queue<String> failures,
               CountDownLatch done) {
            this.id = id;
            this.count = count;
            this.target = target;
            this.server = server;
            this.failures = failures;
            this.done = done;
            this.random = new Random(id);
            this.in = id % 2 == 0 ? ByteBuffer.allocate(2048) : ByteBuffer.allocateDirect(2048); // both kinds
        }

        void sendNext() {
            int len = random.nextInt(1000); // 0 included: an empty payload
            byte[] payload = new byte[len];
            random.nextBytes(payload);
            CRC32 crc = new CRC32();
            crc.update(payload);
            ByteBuffer out = (next % 2 == 0 ? ByteBuffer.allocate(20 + len) : ByteBuffer.allocateDirect(20 + len))
                    .putInt(id).putInt(next).putInt(len).put(payload).putLong(crc.getValue()).flip();
            in.clear();
            ch.receive(in);
            ch.send(out, target);
        }

        @Override
        public void onSendCompleted(OpSend op) {
            if (!op.isSuccess()) {
                failures.add(id + ": send " + op.getError());
                done.countDown();
            } else if (!server.equals(op.getTargetAddress())) {
                failures.add(id + ": sent to " + op.getTargetAddress());
            }
        }

        @Override
        public void onReceiveCompleted(OpReceive op) {
            if (!op.isSuccess()) {
                failures.add(id + ": receive " + op.getError());
                done.countDown();
                return;
            }
            in.flip();
            String problem = check(op);
            if (problem != null) {
                failures.add(id + "/" + next + ": " + problem);
                done.countDown();
                return;
            }
            if (++next == count) {
                done.countDown();
            } else {
                sendNext();
            }
        }

        private String check(OpReceive op) {
            if (!server.equals(op.getSourceAddress())) {
                return "datagram from " + op.getSourceAddress();
            }
            if (op.getBytesCompleted() != in.remaining() || in.remaining() < 20) {
                return "bytes " + op.getBytesCompleted();
            }
            int gotId = in.getInt();
            int seq = in.getInt();
            int len = in.getInt();
            if (gotId != id || seq != next || len != in.remaining() - 8) {
                return "got " + gotId + "/" + seq + " len " + len + ": lost or reordered";
            }
            byte[] payload = new byte[len];
            in.get(payload);
            CRC32 crc = new CRC32();
            crc.update(payload);
            return crc.getValue() == in.getLong() ? null : "checksum";
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("no reads on a datagram channel");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("no writes on a datagram channel");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void manySendersEchoEveryDatagramWithoutLoss(ProactorConfig config) throws Exception {
        int senders = 8;
        int each = 500;
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        try (Demultiplexor demux = open(config)) {
            Echo echo = new Echo(failures);
            echo.ch = AsynchChannel.openDatagram(demux, echo, loopback(0));
            SocketAddress server = echo.ch.getLocalAddress();
            echo.start();
            CountDownLatch done = new CountDownLatch(senders);
            List<Sender> all = new ArrayList<>();
            for (int i = 0; i < senders; i++) {
                Sender s;
                switch (i % 3) {
                    case 0 -> { // bound by the demultiplexor, unconnected: a target on every send
                        s = new Sender(i, each, server, server, failures, done);
                        s.ch = AsynchChannel.openDatagram(demux, s, loopback(0));
                    }
                    case 1 -> { // a connected JDK channel through the seed constructor: no target
                        s = new Sender(i, each, null, server, failures, done);
                        DatagramChannel dc = DatagramChannel.open(StandardProtocolFamily.INET);
                        dc.bind(loopback(0)).connect(server);
                        s.ch = new AsynchChannel(demux, s, dc);
                        assertEquals(server, s.ch.getRemoteAddress());
                    }
                    default -> { // an unconnected JDK channel through the seed constructor
                        s = new Sender(i, each, server, server, failures, done);
                        DatagramChannel dc = DatagramChannel.open(StandardProtocolFamily.INET);
                        dc.bind(loopback(0));
                        s.ch = new AsynchChannel(demux, s, dc);
                        assertNull(s.ch.getRemoteAddress());
                    }
                }
                all.add(s);
            }
            for (Sender s : all) {
                s.sendNext();
            }
            await(done, "every sender's last echo");
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            assertEquals(senders * each, echo.received.get(), "every datagram arrived once at the echo server");
            for (Sender s : all) {
                assertEquals(each, s.next);
                s.ch.close();
            }
            echo.ch.close();
        }
    }

    // ------------------------------------------------------------------------------------------ edge cases

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anOversizedDatagramIsTruncatedAndTheExcessDiscarded(ProactorConfig config) throws Exception {
        byte[] big = new byte[1000];
        new Random(1).nextBytes(big);
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             AsynchChannel ch = AsynchChannel.openDatagram(demux, h, loopback(0));
             DatagramChannel peer = DatagramChannel.open(StandardProtocolFamily.INET).bind(loopback(0))) {
            ByteBuffer small = ByteBuffer.allocate(100);
            ch.receive(small, "big");
            peer.send(ByteBuffer.wrap(big), ch.getLocalAddress());
            peer.send(ByteBuffer.wrap("after".getBytes(StandardCharsets.US_ASCII)), ch.getLocalAddress());
            h.await(1, "receive of the oversized datagram");
            ByteBuffer next = ByteBuffer.allocateDirect(100);
            ch.receive(next, "after");
            h.await(1, "receive of the next datagram");
            List<Completion> c = h.list();
            assertNull(c.get(0).error());
            assertEquals(100, c.get(0).bytes(), "the bytes that fit are stored");
            assertArrayEquals(Arrays.copyOf(big, 100), small.array());
            assertEquals(peer.getLocalAddress(), c.get(0).address());
            assertEquals(5, c.get(1).bytes(), "the excess is not delivered as another datagram");
            next.flip();
            assertEquals("after", StandardCharsets.US_ASCII.decode(next).toString());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void emptyDatagramsAreSentAndReceivedWithZeroBytes(ProactorConfig config) throws Exception {
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             AsynchChannel ch = AsynchChannel.openDatagram(demux, h, loopback(0));
             DatagramSocket peer = new DatagramSocket(loopback(0))) {
            peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(60)); // hang guard
            ch.receive(ByteBuffer.allocate(10), "in");
            peer.send(new DatagramPacket(new byte[0], 0, ch.getLocalAddress()));
            h.await(1, "receive of an empty datagram");
            ch.send(ByteBuffer.allocate(0), peer.getLocalSocketAddress(), "out");
            h.await(1, "send of an empty datagram");
            DatagramPacket p = new DatagramPacket(new byte[10], 10);
            peer.receive(p);
            assertEquals(0, p.getLength());
            assertEquals(ch.getLocalAddress(), p.getSocketAddress());
            List<Completion> c = h.list();
            assertEquals(OpKind.RECEIVE, c.get(0).kind());
            assertNull(c.get(0).error());
            assertEquals(0, c.get(0).bytes());
            assertEquals(peer.getLocalSocketAddress(), c.get(0).address());
            assertEquals(OpKind.SEND, c.get(1).kind());
            assertNull(c.get(1).error());
            assertEquals(0, c.get(1).bytes());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aSendIsWholeAndGoesToTheTargetOrTheConnectedPeer(ProactorConfig config) throws Exception {
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             DatagramSocket peer = new DatagramSocket(loopback(0));
             AsynchChannel unconnected = AsynchChannel.openDatagram(demux, h, loopback(0))) {
            peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(60)); // hang guard
            DatagramChannel dc = DatagramChannel.open(StandardProtocolFamily.INET);
            dc.bind(loopback(0)).connect(peer.getLocalSocketAddress());
            try (AsynchChannel connected = new AsynchChannel(demux, h, dc)) {
                byte[] data = new byte[8000];
                new Random(2).nextBytes(data);
                ByteBuffer src = ByteBuffer.allocateDirect(data.length).put(data).flip();
                connected.send(src, null, "connected");
                h.await(1, "send to the connected peer");
                Completion c = h.list().get(0);
                assertNull(c.error());
                assertEquals(data.length, c.bytes());
                assertEquals(peer.getLocalSocketAddress(), c.address(), "the target of a null-target send");
                assertEquals(0, src.remaining());
                DatagramPacket p = new DatagramPacket(new byte[9000], 9000);
                peer.receive(p);
                assertArrayEquals(data, Arrays.copyOf(p.getData(), p.getLength()));
                assertEquals(dc.getLocalAddress(), p.getSocketAddress());
            }
            assertThrows(IllegalArgumentException.class, () -> unconnected.send(ByteBuffer.allocate(1),
                    InetSocketAddress.createUnresolved("example.invalid", 9)));
            unconnected.send(ByteBuffer.allocate(4), null, "no peer");
            h.await(1, "send without a target on an unconnected channel");
            Completion c = h.list().get(1);
            assertInstanceOf(NotYetConnectedException.class, c.error());
            unconnected.send(ByteBuffer.allocate(70_000), peer.getLocalSocketAddress(), "too big");
            h.await(1, "send of a datagram too large for UDP");
            assertInstanceOf(java.io.IOException.class, h.list().get(2).error());
        }
    }

    // ------------------------------------------------------------------------------------------ cancel and close

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void cancelAndCloseCompletePendingReceivesExactlyOnce(ProactorConfig config) throws Exception {
        int pending = 3;
        Completions h = new Completions();
        Demultiplexor demux = open(config);
        try (DatagramSocket peer = new DatagramSocket(loopback(0))) {
            AsynchChannel ch = AsynchChannel.openDatagram(demux, h, loopback(0));
            for (int i = 0; i < pending; i++) {
                ch.receive(ByteBuffer.allocate(16), "cancelled " + i);
            }
            ch.cancel();
            h.await(pending, "cancelled receives");
            for (Completion c : h.list()) {
                assertInstanceOf(OperationCancelledException.class, c.error());
            }
            assertTrue(ch.isOpen());
            ByteBuffer buf = ByteBuffer.allocate(16);
            ch.receive(buf, "after cancel");
            peer.send(new DatagramPacket(new byte[] {42}, 1, ch.getLocalAddress()));
            h.await(1, "a receive after cancel");
            assertEquals(1, h.list().get(pending).bytes());
            assertEquals(42, buf.get(0));

            for (int i = 0; i < pending; i++) {
                ch.receive(ByteBuffer.allocate(16), "closed " + i);
            }
            ch.close();
            h.await(pending, "receives ended by close");
            for (Completion c : h.list().subList(pending + 1, 2 * pending + 1)) {
                assertInstanceOf(AsynchronousCloseException.class, c.error());
            }
            ch.receive(ByteBuffer.allocate(16), "late");
            ch.send(ByteBuffer.allocate(1), peer.getLocalSocketAddress(), "late send");
            h.await(2, "operations after close");
            for (Completion c : h.list().subList(2 * pending + 1, 2 * pending + 3)) {
                assertInstanceOf(ClosedChannelException.class, c.error());
            }
        } finally {
            demux.close();
        }
        for (int i = 0; i < pending; i++) {
            assertEquals(1, h.count("cancelled " + i));
            assertEquals(1, h.count("closed " + i));
        }
        assertEquals(2 * pending + 3, h.size());
    }

    // ------------------------------------------------------------------------------------------ bad input

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void badInputIsRejectedAtTheCall(ProactorConfig config) throws Exception {
        Path file = dir.resolve("f");
        Files.write(file, new byte[] {1});
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             AsynchChannel ch = AsynchChannel.openDatagram(demux, h, loopback(0));
             AsynchChannel stream = AsynchChannel.openSocket(demux, h);
             FileChannel fc = FileChannel.open(file)) {
            assertNotNull(ch.getLocalAddress());
            assertThrows(IllegalArgumentException.class, () -> ch.receive(ByteBuffer.allocate(8).asReadOnlyBuffer()));
            assertThrows(IllegalArgumentException.class, () -> ch.receive(ByteBuffer.allocate(0)));
            assertThrows(NullPointerException.class, () -> ch.receive(null));
            assertThrows(NullPointerException.class, () -> ch.send(null, loopback(9)));
            assertThrows(UnsupportedOperationException.class, () -> ch.read(ByteBuffer.allocate(8)));
            assertThrows(UnsupportedOperationException.class, () -> ch.write(ByteBuffer.allocate(8)));
            assertThrows(UnsupportedOperationException.class, () -> ch.read(ByteBuffer.allocate(8), 0, null));
            assertThrows(UnsupportedOperationException.class, () -> ch.connect(loopback(9)));
            assertThrows(UnsupportedOperationException.class, ch::accept);
            assertThrows(UnsupportedOperationException.class, () -> ch.transmitFile(fc, 0, 1, null, null, null));
            assertThrows(UnsupportedOperationException.class, ch::size);
            assertThrows(UnsupportedOperationException.class, ch::shutdownOutput);
            assertThrows(UnsupportedOperationException.class, () -> stream.receive(ByteBuffer.allocate(8)));
            assertThrows(UnsupportedOperationException.class, () -> stream.send(ByteBuffer.allocate(8), null));
            assertThrows(NullPointerException.class, () -> AsynchChannel.openDatagram(demux, h, null));
            assertThrows(java.net.BindException.class,
                    () -> AsynchChannel.openDatagram(demux, h, ch.getLocalAddress()));
            assertEquals(0, h.size(), "nothing was started");
        }
    }
}
