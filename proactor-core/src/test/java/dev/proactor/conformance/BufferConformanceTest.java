package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractConformanceTest.open;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The buffer conformance suite: how an engine treats the buffers of stream reads and writes at their edges.
 * Scattering reads and gathering writes over buffers with nothing remaining (skipped, never read as end of
 * stream) and over more buffers than one system call takes ({@code IOV_MAX}, 1024 on Linux); and misuse that must
 * never reach native memory: a buffer repositioned while its read is pending, and a buffer whose memory was freed
 * (a closed {@code java.lang.foreign.Arena}, JDK 22 and later), for stream and datagram operations and the
 * header of a file transmission. A concrete subclass names its
 * engine ({@link EngineUnderTest}).
 *
 * <p>Waits are bounded only as hang guards; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class BufferConformanceTest {

    /** Row {@code BUFFERS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.BUFFERS, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final long GUARD_SECONDS = 60;
    /** {@code IOV_MAX} on Linux: most buffers one readv/writev takes. */
    private static final int IOV_MAX = 1024;

    @TempDir
    Path dir;

    // ------------------------------------------------------------------------------------------ a connection

    /** What one completion said (operations are reused, so the handler copies what it needs). */
    private record Result(OpKind kind, Object attachment, long bytes, Throwable error) {
    }

    /** Records every completion of a client channel in arrival order. */
    private static final class Recorder implements AsynchHandler {
        final BlockingQueue<Result> results = new LinkedBlockingQueue<>();

        @Override
        public void onConnectCompleted(OpConnect op) {
            results.add(new Result(op.getKind(), op.getAttachment(), 0, op.getError()));
        }

        @Override
        public void onReadCompleted(OpRead op) {
            results.add(new Result(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError()));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            results.add(new Result(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError()));
        }

        @Override
        public void onTransmitCompleted(OpTransmit op) {
            results.add(new Result(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError()));
        }

        @Override
        public void onReceiveCompleted(OpReceive op) {
            results.add(new Result(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError()));
        }

        @Override
        public void onSendCompleted(OpSend op) {
            results.add(new Result(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError()));
        }

        Result next(String what) throws InterruptedException {
            Result r = results.poll(GUARD_SECONDS, TimeUnit.SECONDS);
            assertNotNull(r, "hang guard: " + what + " never completed");
            return r;
        }
    }

    /** A proactor client channel connected to a plain blocking socket on loopback. */
    private static final class Connection implements AutoCloseable {
        final AsynchChannel channel;
        final Socket peer;

        Connection(AsynchChannel channel, Socket peer) {
            this.channel = channel;
            this.peer = peer;
        }

        static Connection open(Demultiplexor demux, Recorder recorder) throws Exception {
            try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                AsynchChannel channel = AsynchChannel.openSocket(demux, recorder);
                channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()));
                listener.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                Socket peer = listener.accept();
                peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                Result connected = recorder.next("connect");
                assertNull(connected.error(), "connect");
                return new Connection(channel, peer);
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
            peer.close();
        }
    }

    private static ByteBuffer allocate(int capacity, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }

    private static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed + 31 * i);
        }
        return bytes;
    }

    /**
     * Reads into {@code buffers} until {@code total} bytes arrived: every read must complete with at least one byte,
     * never with end of stream (the peer is still open).
     */
    private static void readUntil(Connection c, Recorder r, ByteBuffer[] buffers, int total) throws Exception {
        long got = 0;
        while (got < total) {
            c.channel.read(buffers, 0, buffers.length, null);
            Result result = r.next("scattering read");
            assertNull(result.error(), "scattering read");
            assertTrue(result.bytes() > 0, () -> "a scattering read with space in later buffers completed with "
                    + result.bytes() + " (end of stream?) though the peer is open and sent data");
            got += result.bytes();
        }
        assertEquals(total, got);
    }

    // ------------------------------------------------------------------------------------------ heap buffers

    /**
     * Heap buffers reach the kernel through native memory (the JDK's own channels use a temporary direct buffer
     * of the calling thread). A connection must not keep such memory for itself once its transfers are done: a
     * server keeps many connections idle between requests, with a read pending, and a block of its own per
     * connection and direction (64 KiB each) would add up to gigabytes of direct memory at ten thousand
     * connections, past the JVM's limit.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void connectionsThatMovedHeapBuffersKeepNoNativeMemoryOfTheirOwn(ProactorConfig config) throws Exception {
        byte[] request = pattern(1000, 5);
        byte[] response = pattern(1500, 9);
        assertConnectionsKeepNoNativeMemory(config, 24, "per idle connection after heap-buffer transfers",
                (demux, r) -> exchangeThroughHeapBuffers(demux, r, request, response));
    }

    /**
     * A heap write bigger than the socket buffers can hold waits for room while the peer is not reading; once the
     * peer read everything and the write completed, the connection keeps no native memory for it either.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aHeapWriteThatWaitedForRoomKeepsNoNativeMemoryOnceDone(ProactorConfig config) throws Exception {
        byte[] data = pattern(16 << 20, 3); // more than loopback's largest send and receive buffers together
        assertConnectionsKeepNoNativeMemory(config, 24, "per connection after a heap write that waited for room",
                (demux, r) -> writeWhilePeerWaits(demux, r, data));
    }

    /** Opens a connection and leaves it in the state to measure. */
    private interface ConnectionSetUp {
        Connection open(Demultiplexor demux, Recorder r) throws Exception;
    }

    /**
     * Asserts that each of {@code n} connections set up by {@code setUp} keeps at most 4 KiB of direct memory,
     * measured after one more set up first, whose one-off allocations (the engine's, the JDK's caches) come before
     * the baseline. Run once per engine: the memory kept does not depend on the dispatcher's settings.
     */
    private static void assertConnectionsKeepNoNativeMemory(ProactorConfig config, int n, String what,
                                                            ConnectionSetUp setUp) throws Exception {
        assumeTrue(config.leader() == LeaderMode.SHARED && config.threads() == 1,
                "the memory kept does not depend on the dispatcher's settings");
        long allowed = 4096;
        Recorder r = new Recorder();
        List<Connection> connections = new ArrayList<>();
        try (Demultiplexor demux = open(config)) {
            connections.add(setUp.open(demux, r));
            long before = DirectMemory.settled();
            for (int i = 0; i < n; i++) {
                connections.add(setUp.open(demux, r));
            }
            long perConnection = (DirectMemory.settled() - before) / n;
            assertTrue(perConnection <= allowed, "direct memory kept " + what + ": " + perConnection
                    + " bytes (at most " + allowed + ")");
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    /** Writes {@code data} from one heap buffer, reads it all as the peer only then, and checks it arrived intact. */
    private static Connection writeWhilePeerWaits(Demultiplexor demux, Recorder r, byte[] data) throws Exception {
        Connection c = Connection.open(demux, r);
        c.channel.write(ByteBuffer.wrap(data));
        assertArrayEquals(data, c.peer.getInputStream().readNBytes(data.length), "the bytes of a heap write");
        Result written = r.next("heap write");
        assertNull(written.error(), "heap write");
        assertEquals(data.length, written.bytes());
        return c;
    }

    /**
     * Opens a connection, writes {@code request} from a heap buffer, reads {@code response} into one, and leaves
     * a read of a heap buffer pending: the state of a server's connection between two requests.
     */
    private static Connection exchangeThroughHeapBuffers(Demultiplexor demux, Recorder r, byte[] request,
                                                         byte[] response) throws Exception {
        Connection c = Connection.open(demux, r);
        c.channel.write(ByteBuffer.wrap(request));
        Result written = r.next("heap write");
        assertNull(written.error(), "heap write");
        assertEquals(request.length, written.bytes());
        assertArrayEquals(request, c.peer.getInputStream().readNBytes(request.length));
        c.peer.getOutputStream().write(response);
        ByteBuffer in = ByteBuffer.allocate(response.length);
        while (in.hasRemaining()) {
            c.channel.read(in);
            Result read = r.next("heap read");
            assertNull(read.error(), "heap read");
            assertTrue(read.bytes() > 0, "end of stream before the whole response");
        }
        assertArrayEquals(response, in.array());
        c.channel.read(ByteBuffer.allocate(4096)); // pending until the connection closes
        return c;
    }

    // ------------------------------------------------------------------------------------------ scattering reads

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void scatteringReadSkipsFullBuffersEvenPastTheFirstSixteen(ProactorConfig config) throws Exception {
        for (boolean direct : new boolean[] {true, false}) {
            Recorder r = new Recorder();
            try (Demultiplexor demux = open(config); Connection c = Connection.open(demux, r)) {
                ByteBuffer[] buffers = new ByteBuffer[20];
                for (int i = 0; i < buffers.length; i++) {
                    buffers[i] = allocate(4, direct || i > 0); // heap: one heap buffer among direct ones
                    if (i < 16) {
                        buffers[i].position(4); // full: nothing may be read into it
                    }
                }
                byte[] data = pattern(16, 1);
                c.peer.getOutputStream().write(data);
                readUntil(c, r, buffers, data.length);
                byte[] landed = new byte[16];
                for (int i = 16; i < 20; i++) {
                    assertEquals(4, buffers[i].position(), "buffer " + i + " filled");
                    buffers[i].get(0, landed, (i - 16) * 4, 4);
                }
                assertArrayEquals(data, landed, "the bytes land in the buffers with space, in order");
                for (int i = 0; i < 16; i++) {
                    assertEquals(4, buffers[i].position());
                    assertArrayEquals(new byte[4], contents(buffers[i]), "full buffer " + i + " untouched");
                }
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void scatteringReadOverMoreThanIovMaxBuffersFillsThemInOrder(ProactorConfig config) throws Exception {
        int dataBuffers = IOV_MAX + 76;
        Recorder r = new Recorder();
        try (Demultiplexor demux = open(config); Connection c = Connection.open(demux, r)) {
            // Every data buffer is preceded by an empty one: they must be skipped, not count against IOV_MAX.
            ByteBuffer[] buffers = new ByteBuffer[2 * dataBuffers];
            for (int i = 0; i < buffers.length; i++) {
                buffers[i] = ByteBuffer.allocateDirect(i % 2 == 0 ? 0 : 1);
            }
            byte[] data = pattern(dataBuffers, 7);
            c.peer.getOutputStream().write(data);
            readUntil(c, r, buffers, data.length);
            for (int i = 0; i < dataBuffers; i++) {
                ByteBuffer b = buffers[2 * i + 1];
                assertEquals(1, b.position(), "data buffer " + i + " filled");
                assertEquals(data[i], b.get(0), "byte " + i);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ gathering writes

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void gatheringWriteSkipsEmptyBuffersAndCoversMoreThanIovMaxBuffers(ProactorConfig config) throws Exception {
        for (boolean direct : new boolean[] {true, false}) {
            Recorder r = new Recorder();
            try (Demultiplexor demux = open(config); Connection c = Connection.open(demux, r)) {
                ByteBuffer[] buffers = new ByteBuffer[3 * IOV_MAX];
                byte[] expected = new byte[buffers.length * 4];
                int total = 0;
                for (int i = 0; i < buffers.length; i++) {
                    int size = i % 3 == 0 ? 0 : 1 + i % 4; // a third of them empty
                    buffers[i] = allocate(size, direct || i != 5);
                    byte[] bytes = pattern(size, i);
                    buffers[i].put(bytes).flip();
                    System.arraycopy(bytes, 0, expected, total, size);
                    total += size;
                }
                c.channel.write(buffers);
                byte[] received = c.peer.getInputStream().readNBytes(total);
                Result result = r.next("gathering write");
                assertNull(result.error(), "gathering write");
                assertEquals(total, result.bytes());
                assertArrayEquals(Arrays.copyOf(expected, total), received, "the peer gets every byte, in order");
                for (ByteBuffer b : buffers) {
                    assertFalse(b.hasRemaining());
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------ misuse

    /** Bytes on each side of a buffer carved out of a larger one; a write beyond the buffer changes them. */
    private static final int GUARD = 64;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    private static void assertGuardsIntact(ByteBuffer slice, ByteBuffer whole) {
        for (int i = 0; i < GUARD; i++) {
            assertEquals(GUARD_BYTE, whole.get(i), "guard byte " + i + " before the buffer was written");
            assertEquals(GUARD_BYTE, whole.get(GUARD + slice.capacity() + i),
                    "guard byte " + i + " after the buffer was written: bytes went past its capacity");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aBufferRepositionedWhileItsReadIsPendingIsNeverOverrun(ProactorConfig config) throws Exception {
        int capacity = 32;
        ByteBuffer whole = ByteBuffer.allocateDirect(GUARD + capacity + GUARD);
        for (int i = 0; i < whole.capacity(); i++) {
            whole.put(i, GUARD_BYTE);
        }
        ByteBuffer target = whole.slice(GUARD, capacity);
        Recorder r = new Recorder();
        try (Demultiplexor demux = open(config); Connection c = Connection.open(demux, r)) {
            // 1. Moved while pending, consistently: the read goes where the buffer says when the data comes.
            target.position(4);
            c.channel.read(target);
            target.position(capacity - 2);
            c.peer.getOutputStream().write(pattern(100, 3));
            Result first = r.next("read of a repositioned buffer");
            if (first.error() == null) {
                assertTrue(first.bytes() >= 1 && first.bytes() <= capacity, () -> "bytes: " + first.bytes());
            }
            assertGuardsIntact(target, whole);

            // 2. Moved all the time by another thread while reads run back to back on a stream of data.
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                byte[] chunk = pattern(4096, 11);
                try {
                    OutputStream out = c.peer.getOutputStream();
                    while (!stop.get()) {
                        out.write(chunk);
                    }
                } catch (IOException e) {
                    // the peer is closed at the end of the test
                }
            }, "buffer-conformance-writer");
            Thread mover = new Thread(() -> {
                while (!stop.get()) {
                    // Every state leaves space, so the reads keep being accepted; mixes of them must not be used.
                    target.limit(capacity);
                    target.position(capacity - 1);
                    target.position(0);
                    target.limit(1);
                }
            }, "buffer-conformance-mover");
            writer.setDaemon(true);
            mover.setDaemon(true);
            writer.start();
            mover.start();
            int reads = 0;
            int errors = 0;
            try {
                while (reads < 10_000) {
                    try {
                        c.channel.read(target);
                    } catch (IllegalArgumentException noSpaceRightNow) {
                        Thread.onSpinWait(); // the engine advanced the position to the limit: the mover resets it
                        continue;
                    }
                    Result result = r.next("read of a buffer moved by another thread");
                    reads++;
                    if (result.error() != null) {
                        errors++; // e.g. the position the engine advances to is past the limit the mover set
                    } else {
                        // 0 is possible: the engine may see the buffer between two moves, with no space left.
                        assertTrue(result.bytes() >= 0 && result.bytes() <= capacity, "bytes: " + result.bytes());
                    }
                }
            } finally {
                stop.set(true);
                mover.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                c.peer.close();
                writer.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            }
            assertGuardsIntact(target, whole);
            assertTrue(errors <= reads);
        }
    }

    // ------------------------------------------------------------------------------------------ freed memory

    /**
     * A direct buffer over memory of a {@code java.lang.foreign} shared arena that is already closed: any access
     * through the JDK throws {@link IllegalStateException}. Reached by reflection, since this suite compiles for
     * Java 17; the test is skipped, with the reason, on a JDK without the final API (before 22).
     */
    private static ByteBuffer bufferOfAClosedArena(int size) throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, () -> "needs java.lang.foreign (final from JDK 22) to free a"
                + " direct buffer's memory; this JVM is " + Runtime.version());
        Object arena = Class.forName("java.lang.foreign.Arena").getMethod("ofShared").invoke(null);
        Object segment = Class.forName("java.lang.foreign.SegmentAllocator").getMethod("allocate", long.class)
                .invoke(arena, (long) size);
        ByteBuffer buffer = (ByteBuffer) Class.forName("java.lang.foreign.MemorySegment").getMethod("asByteBuffer")
                .invoke(segment);
        assertTrue(buffer.isDirect());
        ((AutoCloseable) arena).close();
        try {
            buffer.get(0);
            fail("a buffer of a closed arena was still readable");
        } catch (IllegalStateException expected) {
            // what every JDK accessor does now
        }
        return buffer;
    }

    /** The result is an error that says the memory is gone; the engine did not read or write it. */
    private static void assertRefused(Result result, String what) {
        assertNotNull(result.error(), what + " on a buffer of a closed arena must fail, it completed with "
                + result.bytes() + " bytes");
        assertInstanceOf(IllegalStateException.class, result.error(), what);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aBufferOfAClosedArenaIsRefusedNotUsed(ProactorConfig config) throws Exception {
        ByteBuffer freed = bufferOfAClosedArena(4096);
        Recorder r = new Recorder();
        try (Demultiplexor demux = open(config); Connection c = Connection.open(demux, r)) {
            OutputStream out = c.peer.getOutputStream();
            InputStream in = c.peer.getInputStream();

            out.write(pattern(100, 5)); // data is there: a read would go straight to the kernel
            c.channel.read(freed);
            assertRefused(r.next("read"), "read");
            c.channel.read(new ByteBuffer[] {ByteBuffer.allocateDirect(1).position(1), freed}, 0, 2, null);
            assertRefused(r.next("scattering read"), "scattering read");

            ByteBuffer marker = ByteBuffer.wrap("marker".getBytes(StandardCharsets.US_ASCII));
            c.channel.write(freed);
            assertRefused(r.next("write"), "write");
            c.channel.write(new ByteBuffer[] {ByteBuffer.allocateDirect(0), freed}, 0, 2, null);
            assertRefused(r.next("gathering write"), "gathering write");
            Path file = Files.write(dir.resolve("body"), pattern(10, 9));
            try (FileChannel fc = FileChannel.open(file)) {
                c.channel.transmitFile(fc, 0, 10, freed, null, null);
                assertRefused(r.next("transmitFile with a freed header"), "transmitFile");
            }
            c.channel.write(marker);
            Result written = r.next("write of the marker");
            assertNull(written.error());
            assertEquals("marker", new String(in.readNBytes(6), StandardCharsets.US_ASCII),
                    "nothing reached the peer before the marker");

            // The channel still works; the data sent at the start was not consumed by the refused reads.
            ByteBuffer good = ByteBuffer.allocateDirect(100);
            while (good.hasRemaining()) {
                c.channel.read(good);
                Result result = r.next("read after the refusals");
                assertNull(result.error());
                assertTrue(result.bytes() > 0);
            }
            assertArrayEquals(pattern(100, 5), contents(good.flip()));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aDatagramBufferOfAClosedArenaIsRefusedNotUsed(ProactorConfig config) throws Exception {
        ByteBuffer freed = bufferOfAClosedArena(2048);
        Recorder r = new Recorder();
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (Demultiplexor demux = open(config);
             AsynchChannel udp = AsynchChannel.openDatagram(demux, r, new InetSocketAddress(loopback, 0));
             DatagramSocket peer = new DatagramSocket(0, loopback)) {
            peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            InetSocketAddress peerAddress = new InetSocketAddress(loopback, peer.getLocalPort());
            udp.send(freed, peerAddress);
            assertRefused(r.next("send"), "send");
            byte[] datagram = pattern(40, 13);
            peer.send(new DatagramPacket(datagram, datagram.length, udp.getLocalAddress()));
            udp.receive(freed);
            assertRefused(r.next("receive"), "receive");

            // Nothing was sent, and the datagram waiting was not taken by the refused receive.
            udp.send(ByteBuffer.wrap("marker".getBytes(StandardCharsets.US_ASCII)), peerAddress);
            assertNull(r.next("send of the marker").error());
            DatagramPacket first = new DatagramPacket(new byte[100], 100);
            peer.receive(first);
            assertEquals("marker", new String(first.getData(), 0, first.getLength(), StandardCharsets.US_ASCII));
            ByteBuffer good = ByteBuffer.allocateDirect(100);
            udp.receive(good);
            Result received = r.next("receive after the refusal");
            assertNull(received.error());
            assertEquals(datagram.length, received.bytes());
            assertArrayEquals(datagram, Arrays.copyOf(contents(good.flip()), datagram.length));
        }
    }

    private static byte[] contents(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.limit()];
        buffer.get(0, bytes);
        return bytes;
    }
}
