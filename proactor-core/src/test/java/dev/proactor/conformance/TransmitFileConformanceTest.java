package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractConformanceTest.await;
import static dev.proactor.conformance.AbstractConformanceTest.connect;
import static dev.proactor.conformance.AbstractConformanceTest.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The file transmission conformance suite ({@link AsynchChannel#transmitFile}): a server connection transmits
 * header, file region and trailer to a plain JDK socket that checks the byte count and checksum of everything
 * it receives. Covers 0 bytes, 1 byte, 100 MiB, header and trailer, a file that ends early, a file channel
 * whose {@code transferTo} fails (the copying path), and cancel and close while a transmission is pending. A
 * concrete subclass names its engine ({@link EngineUnderTest}).
 *
 * <p>Waits are bounded only as hang guards; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class TransmitFileConformanceTest {

    /** Row {@code TRANSMIT_FILE} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.TRANSMIT_FILE, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final int BIG = 100 << 20;

    @TempDir
    Path dir;

    /** The 100 MiB file, made once per JVM (random blocks, so the checksum means something). */
    private static final class BigFile {
        static final Path PATH = create();

        private static Path create() {
            try {
                Path p = Files.createTempFile("proactor-transmit-", ".bin");
                p.toFile().deleteOnExit();
                Random r = new Random(100);
                byte[] block = new byte[1 << 20];
                try (FileChannel fc = FileChannel.open(p, StandardOpenOption.WRITE)) {
                    for (int i = 0; i < BIG / block.length; i++) {
                        r.nextBytes(block);
                        ByteBuffer b = ByteBuffer.wrap(block);
                        while (b.hasRemaining()) {
                            fc.write(b);
                        }
                    }
                }
                return p;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** What the transmitting side saw. */
    private record Result(long bytes, long fileBytes, Throwable error, int headerLeft, int trailerLeft) {
    }

    /** What the receiving peer saw up to end-of-stream. */
    private record Received(long bytes, long crc) {
    }

    /**
     * A server connection that starts one transmission as soon as it is adopted, records the result, and
     * closes the connection after it (so the peer reads to end-of-stream), unless told to wait.
     */
    private static final class Transmitter implements ConnectionHandler {
        final FileChannel file;
        final long position;
        final long count;
        final ByteBuffer header;
        final ByteBuffer trailer;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Result> result = new AtomicReference<>();
        final AtomicInteger completions = new AtomicInteger();
        volatile AsynchChannel ch;

        Transmitter(FileChannel file, long position, long count, ByteBuffer header, ByteBuffer trailer) {
            this.file = file;
            this.position = position;
            this.count = count;
            this.header = header;
            this.trailer = trailer;
        }

        @Override
        public void start(AsynchChannel channel) {
            ch = channel;
            channel.transmitFile(file, position, count, header, trailer, "transmit");
            started.countDown();
        }

        @Override
        public void onTransmitCompleted(OpTransmit op) {
            if (completions.incrementAndGet() == 1) {
                assertEquals(count, op.getCount());
                assertEquals(position, op.getPosition());
                assertEquals(file, op.getFile());
                result.set(new Result(op.getBytesCompleted(), op.getFileBytes(), op.getError(),
                        header == null ? 0 : header.remaining(), trailer == null ? 0 : trailer.remaining()));
            }
            ch.close();
            done.countDown();
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("no reads");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("no writes");
        }
    }

    private static Received readToEnd(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[256 * 1024];
        CRC32 crc = new CRC32();
        long total = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            crc.update(buf, 0, n);
            total += n;
        }
        return new Received(total, crc.getValue());
    }

    /** Checksum and count of header + file[position, position + count) + trailer (what should arrive). */
    private static Received expected(byte[] header, Path file, long position, long count, byte[] trailer)
            throws IOException {
        CRC32 crc = new CRC32();
        long total = 0;
        if (header != null) {
            crc.update(header);
            total += header.length;
        }
        try (FileChannel fc = FileChannel.open(file)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            long at = position;
            long end = Math.min(position + count, fc.size());
            while (at < end) {
                b.clear().limit((int) Math.min(b.capacity(), end - at));
                int n = fc.read(b, at);
                b.flip();
                crc.update(b);
                at += n;
                total += n;
            }
        }
        if (trailer != null) {
            crc.update(trailer);
            total += trailer.length;
        }
        return new Received(total, crc.getValue());
    }

    private static ByteBuffer heap(byte[] b) {
        return b == null ? null : ByteBuffer.wrap(b);
    }

    private static ByteBuffer direct(byte[] b) {
        return b == null ? null : ByteBuffer.allocateDirect(b.length).put(b).flip();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private Path file(String name, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return Files.write(dir.resolve(name), data);
    }

    /**
     * Transmits and checks: the operation succeeds with every byte, and the peer receives exactly header, file
     * region and trailer.
     */
    private static void transmitsExactly(ProactorConfig config, Path path, UnaryOperator<FileChannel> wrap,
                                         long position, long count, byte[] header, byte[] trailer)
            throws Exception {
        try (FileChannel fc = wrap.apply(FileChannel.open(path))) {
            Transmitter t = new Transmitter(fc, position, count, heap(header), direct(trailer));
            Received got;
            try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> t);
                 Socket peer = connect(server.address())) {
                got = readToEnd(peer);
                await(t.done, "transmit completion");
            }
            long total = (header == null ? 0 : header.length) + count + (trailer == null ? 0 : trailer.length);
            assertEquals(new Result(total, count, null, 0, 0), t.result.get());
            assertEquals(1, t.completions.get());
            assertEquals(expected(header, path, position, count, trailer), got);
        }
    }

    // ------------------------------------------------------------------------------------------ sizes

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void zeroBytesCompleteAtOnceWithAndWithoutHeaderAndTrailer(ProactorConfig config) throws Exception {
        Path f = file("small", 10, 1);
        transmitsExactly(config, f, UnaryOperator.identity(), 0, 0, null, null);
        transmitsExactly(config, f, UnaryOperator.identity(), 10, 0, ascii("HEAD"), ascii("TAIL"));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void oneByte(ProactorConfig config) throws Exception {
        transmitsExactly(config, file("small", 10, 1), UnaryOperator.identity(), 3, 1, null, null);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void headerFileRegionAndTrailerArriveInOrder(ProactorConfig config) throws Exception {
        byte[] header = new byte[5000];
        new Random(3).nextBytes(header);
        transmitsExactly(config, file("middle", 3 << 20, 2), UnaryOperator.identity(), 12_345, 1 << 20, header,
                ascii("\r\n-- end --\r\n"));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aHundredMebibytes(ProactorConfig config) throws Exception {
        transmitsExactly(config, BigFile.PATH, UnaryOperator.identity(), 1, BIG - 1, ascii("HTTP/1.1 200 OK\r\n\r\n"),
                ascii("trailer"));
    }

    // ------------------------------------------------------------------------------------------ end of file

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aFileEndingEarlyFailsWithEofAfterSendingWhatExists(ProactorConfig config) throws Exception {
        eofCase(config, UnaryOperator.identity());
    }

    private void eofCase(ProactorConfig config, UnaryOperator<FileChannel> wrap) throws Exception {
        Path path = file("thousand", 1000, 4);
        for (long position : new long[] {900, 2000}) {
            try (FileChannel fc = wrap.apply(FileChannel.open(path))) {
                Transmitter t = new Transmitter(fc, position, 500, heap(ascii("H")), heap(ascii("T")));
                Received got;
                try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> t);
                     Socket peer = connect(server.address())) {
                    got = readToEnd(peer);
                    await(t.done, "transmit completion");
                }
                Result r = t.result.get();
                assertInstanceOf(EOFException.class, r.error());
                long exists = Math.max(0, 1000 - position);
                assertEquals(exists, r.fileBytes(), "the bytes that exist are sent");
                assertEquals(1 + exists, r.bytes(), "header and file bytes, no trailer");
                assertEquals(1, r.trailerLeft(), "the trailer is not sent");
                assertEquals(expected(ascii("H"), path, position, exists, null), got);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ copying path

    /** A file channel without a working {@code transferTo}: the engine must copy through a buffer instead. */
    private static FileChannel withoutTransferTo(FileChannel fc) {
        return new DelegatingFileChannel(fc) {
            @Override
            public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
                throw new IOException("no zero-copy transfer here (test)");
            }
        };
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void withoutTransferToTheBytesAreCopiedAndAllArrive(ProactorConfig config) throws Exception {
        transmitsExactly(config, file("copy", 3 << 20, 5), TransmitFileConformanceTest::withoutTransferTo, 7,
                (3 << 20) - 100, ascii("header"), ascii("trailer"));
        eofCase(config, TransmitFileConformanceTest::withoutTransferTo);
    }

    // ------------------------------------------------------------------------------------------ cancel and close

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void cancelEndsAPendingTransmissionOnceAndTheCountMatchesWhatArrived(ProactorConfig config) throws Exception {
        abortPending(config, true);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeEndsAPendingTransmissionOnceAndTheCountMatchesWhatArrived(ProactorConfig config) throws Exception {
        abortPending(config, false);
    }

    /**
     * The peer does not read, so 100 MiB cannot fit in the socket buffers and the transmission stays pending;
     * cancel or close ends it. The bytes it reports sent are then exactly what the peer can read.
     */
    private static void abortPending(ProactorConfig config, boolean cancel) throws Exception {
        byte[] header = ascii("header");
        try (FileChannel fc = FileChannel.open(BigFile.PATH)) {
            Transmitter t = new Transmitter(fc, 0, BIG, heap(header), heap(ascii("trailer")));
            Demultiplexor demux = open(config);
            Received got;
            AsynchChannel ch;
            try (TestServer server = new TestServer(demux, () -> t); Socket peer = connect(server.address())) {
                await(t.started, "transmit started");
                ch = t.ch;
                if (cancel) {
                    ch.cancel(); // the completion callback then closes the channel
                } else {
                    ch.close();
                }
                await(t.done, "transmit completion");
                got = readToEnd(peer);
                ch.transmitFile(fc, 0, 1, null, null, "late");
            } finally {
                demux.close();
            }
            Result r = t.result.get();
            assertNotNull(r);
            Class<? extends Throwable> reason = cancel ? OperationCancelledException.class
                    : AsynchronousCloseException.class;
            assertInstanceOf(reason, r.error());
            assertTrue(r.fileBytes() < BIG, "pending, so not everything was sent: " + r);
            assertEquals(header.length + r.fileBytes(), r.bytes());
            assertEquals(expected(header, BigFile.PATH, 0, r.fileBytes(), null), got);
            assertEquals(2, t.completions.get(), "the transmission once, the late one once");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anOperationOnAClosedChannelFailsAsClosed(ProactorConfig config) throws Exception {
        Path f = file("small", 10, 1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Completions h = new Completions() {
            @Override
            public void onTransmitCompleted(OpTransmit op) {
                error.set(op.getError());
                done.countDown();
            }
        };
        try (Demultiplexor demux = open(config); FileChannel fc = FileChannel.open(f)) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.close();
            ch.transmitFile(fc, 0, 1, null, null, null);
            await(done, "transmit on a closed channel");
            assertInstanceOf(ClosedChannelException.class, error.get());
        }
    }

    // ------------------------------------------------------------------------------------------ bad input

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void badInputIsRejectedAtTheCall(ProactorConfig config) throws Exception {
        Path f = file("small", 10, 1);
        Completions h = new Completions();
        try (Demultiplexor demux = open(config); FileChannel fc = FileChannel.open(f);
             AsynchChannel ch = AsynchChannel.openSocket(demux, h)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            assertThrows(NullPointerException.class, () -> ch.transmitFile(null, 0, 1, null, null, null));
            assertThrows(IllegalArgumentException.class, () -> ch.transmitFile(fc, -1, 1, null, null, null));
            assertThrows(IllegalArgumentException.class, () -> ch.transmitFile(fc, 0, -1, null, null, null));
            assertThrows(IllegalArgumentException.class,
                    () -> ch.transmitFile(fc, 10, Long.MAX_VALUE, null, null, null));
            assertThrows(IllegalArgumentException.class, () -> ch.transmitFile(fc, 0, 1, b, b, null));
            assertThrows(UnsupportedOperationException.class, ch::size);
            AsynchChannel listener = AsynchChannel.openServer(demux, h,
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
            assertThrows(UnsupportedOperationException.class, () -> listener.transmitFile(fc, 0, 1, null, null, null));
            listener.close();
            assertEquals(0, h.size(), "nothing was started");
            assertNull(ch.getRemoteAddress());
        }
    }
}
