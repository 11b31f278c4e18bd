package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractConformanceTest.open;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The buffer conformance suite: how an engine treats the buffers of stream reads and writes at their edges.
 * Scattering reads and gathering writes over buffers with nothing remaining (skipped, never read as end of
 * stream) and over more buffers than one system call takes ({@code IOV_MAX}, 1024 on Linux). A concrete subclass
 * declares
 * {@code static Stream<ProactorConfig> configurations()}.
 *
 * <p>Waits are bounded only as hang guards; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class BufferConformanceTest {

    private static final String NAME = "[{index}] {0}";
    private static final long GUARD_SECONDS = 60;
    /** {@code IOV_MAX} on Linux: most buffers one readv/writev takes. */
    private static final int IOV_MAX = 1024;

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

    private static byte[] contents(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.limit()];
        buffer.get(0, bytes);
        return bytes;
    }
}
