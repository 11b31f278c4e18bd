package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractConformanceTest.open;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.Completions.Completion;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The file conformance suite: positional reads and writes with {@link AsynchChannel#openFile}, end of file,
 * cancel and close while file operations are pending, and the {@code proactor.fileEngine} setting. A concrete
 * subclass names its engine ({@link EngineUnderTest}). It needs no sockets, so it also runs
 * on an engine without any (the file engine does the work).
 *
 * <p>Waits are bounded only as hang guards; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class FileConformanceTest {

    /** Row {@code FILES} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.FILES, test);
    }

    private static final String NAME = "[{index}] {0}";

    @TempDir
    Path dir;

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static long crc(byte[] b, int off, int len) {
        CRC32 c = new CRC32();
        c.update(b, off, len);
        return c.getValue();
    }

    private static final StandardOpenOption[] RW = {StandardOpenOption.READ, StandardOpenOption.WRITE,
        StandardOpenOption.CREATE};

    // ------------------------------------------------------------------------------------------ data integrity

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void writesAndReadsAtRandomPositionsWithMatchingChecksums(ProactorConfig config) throws Exception {
        int size = 6 << 20;
        byte[] data = random(size, 11);
        Path file = dir.resolve("random-positions");
        Random r = new Random(12);
        // Cut the file into chunks of random sizes and write them in random order over four channels.
        List<int[]> chunks = new ArrayList<>();
        for (int off = 0; off < size; ) {
            int len = Math.min(size - off, 1 + r.nextInt(128 * 1024));
            chunks.add(new int[] {off, len});
            off += len;
        }
        Collections.shuffle(chunks, r);
        try (Demultiplexor demux = open(config)) {
            int channels = 4;
            Completions writes = new Completions();
            List<AsynchChannel> chs = new ArrayList<>();
            for (int i = 0; i < channels; i++) {
                chs.add(AsynchChannel.openFile(demux, writes, file, RW));
            }
            for (int i = 0; i < chunks.size(); i++) {
                int[] c = chunks.get(i);
                ByteBuffer b = i % 2 == 0 ? ByteBuffer.wrap(data, c[0], c[1]).slice()
                        : ByteBuffer.allocateDirect(c[1]).put(data, c[0], c[1]).flip();
                chs.get(i % channels).write(b, c[0], c);
            }
            writes.await(chunks.size(), "writes");
            for (Completion c : writes.list()) {
                int[] chunk = (int[]) c.attachment();
                assertEquals(OpKind.WRITE_FILE, c.kind());
                assertNull(c.error());
                assertEquals(chunk[1], c.bytes(), "a file write completes with every byte");
                assertEquals(chunk[0], c.position());
                assertEquals(0, c.buffer().remaining());
                assertEquals(1, writes.count(chunk));
            }
            assertEquals(size, chs.get(0).size());
            assertEquals(crc(data, 0, size), crc(Files.readAllBytes(file), 0, size), "file content after writes");

            // Random reads: each completes with at least one byte, exactly the file's bytes at its position.
            Completions reads = new Completions();
            AsynchChannel reader = AsynchChannel.openFile(demux, reads, file);
            int n = 300;
            for (int i = 0; i < n; i++) {
                int pos = r.nextInt(size);
                int len = 1 + r.nextInt(200 * 1024);
                reader.read(i % 2 == 0 ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len), pos, i);
            }
            reads.await(n, "random reads");
            List<Completion> got = reads.list();
            for (int i = 0; i < n; i++) {
                Completion c = got.get(i);
                assertEquals(i, c.attachment(), "file reads of one channel complete in start order");
                assertEquals(OpKind.READ_FILE, c.kind());
                assertNull(c.error());
                assertTrue(c.bytes() >= 1 && c.bytes() <= c.buffer().capacity(), "bytes " + c.bytes());
                ByteBuffer b = c.buffer().flip();
                assertEquals(c.bytes(), b.remaining());
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                int pos = (int) c.position();
                assertArrayEquals(java.util.Arrays.copyOfRange(data, pos, pos + bytes.length), bytes,
                        "bytes read at " + pos);
            }

            // A sequential read of the whole file, each read continuing where the last ended.
            CRC32 sequential = new CRC32();
            ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
            long pos = 0;
            for (;;) {
                buf.clear();
                reader.read(buf, pos, "seq");
                reads.await(1, "sequential read");
                Completion c = reads.list().get(reads.size() - 1);
                assertNull(c.error());
                if (c.bytes() < 0) {
                    break;
                }
                buf.flip();
                byte[] bytes = new byte[buf.remaining()];
                buf.get(bytes);
                sequential.update(bytes);
                pos += c.bytes();
            }
            assertEquals(size, pos);
            assertEquals(crc(data, 0, size), sequential.getValue());
        }
    }

    // ------------------------------------------------------------------------------------------ end of file

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void readingAtOrPastTheEndIsEndOfStreamAndAcrossItIsShort(ProactorConfig config) throws Exception {
        Path file = dir.resolve("thousand");
        byte[] data = random(1000, 3);
        Files.write(file, data);
        Completions h = new Completions();
        try (Demultiplexor demux = open(config); AsynchChannel ch = AsynchChannel.openFile(demux, h, file)) {
            ch.read(ByteBuffer.allocate(10), 1000, "at end");
            ch.read(ByteBuffer.allocate(10), 5000, "past end");
            ByteBuffer across = ByteBuffer.allocate(100);
            ch.read(across, 990, "across end");
            h.await(3, "reads at the end");
            List<Completion> c = h.list();
            assertEquals(List.of("at end", "past end", "across end"),
                    c.stream().map(Completion::attachment).toList());
            assertEquals(-1, c.get(0).bytes());
            assertNull(c.get(0).error());
            assertEquals(-1, c.get(1).bytes());
            assertEquals(10, c.get(2).bytes());
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 990, 1000),
                    java.util.Arrays.copyOf(across.array(), 10));
            assertEquals(1000, ch.size());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void endOfStreamIsReportedByTheOperation(ProactorConfig config) throws Exception {
        Path file = dir.resolve("empty");
        Files.write(file, new byte[0]);
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Completions h = new Completions() {
            @Override
            public void onReadCompleted(dev.proactor.OpRead op) {
                seen.set(op.isEndOfStream() + " " + op.isSuccess() + " " + op.getBytesCompleted() + " "
                        + op.getKind() + " " + op.getPosition());
                done.countDown();
            }
        };
        try (Demultiplexor demux = open(config); AsynchChannel ch = AsynchChannel.openFile(demux, h, file)) {
            ch.read(ByteBuffer.allocate(1), 0, null);
            AbstractConformanceTest.await(done, "read of an empty file");
            assertEquals("true true -1 READ_FILE 0", seen.get());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aWriteBeyondTheEndGrowsTheFileWithAZeroGap(ProactorConfig config) throws Exception {
        Path file = dir.resolve("sparse");
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             AsynchChannel ch = AsynchChannel.openFile(demux, h, file, StandardOpenOption.WRITE,
                     StandardOpenOption.CREATE_NEW)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 10_000, "far");
            ch.write(ByteBuffer.allocate(0), 3, "empty");
            h.await(2, "writes");
            assertEquals(4, h.list().get(0).bytes());
            assertNull(h.list().get(1).error());
            assertEquals(0, h.list().get(1).bytes());
            assertEquals(10_004, ch.size());
        }
        byte[] content = Files.readAllBytes(file);
        assertEquals(10_004, content.length);
        assertArrayEquals(new byte[10_000], java.util.Arrays.copyOf(content, 10_000));
        assertArrayEquals(new byte[] {1, 2, 3, 4}, java.util.Arrays.copyOfRange(content, 10_000, 10_004));
    }

    // ------------------------------------------------------------------------------------------ wrapped files

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void wrappedChannelsShareTheCallersFileAndLeaveItOpen(ProactorConfig config) throws Exception {
        Path file = dir.resolve("wrapped");
        byte[] data = random(300_000, 21);
        Completions h = new Completions();
        try (Demultiplexor demux = open(config);
             FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                     StandardOpenOption.CREATE_NEW)) {
            AsynchChannel writer = AsynchChannel.wrapFile(demux, h, jdk);
            AsynchChannel reader = AsynchChannel.wrapFile(demux, h, jdk, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(data, 0, 100_000).slice(), 0, "heap");
            writer.write(ByteBuffer.allocateDirect(200_000).put(data, 100_000, 200_000).flip(), 100_000, "direct");
            h.await(2, "writes through the wrapping channel");
            assertEquals(100_000, h.get("heap").bytes());
            assertEquals(200_000, h.get("direct").bytes());
            assertEquals(data.length, writer.size());

            ByteBuffer back = ByteBuffer.allocateDirect(data.length);
            long pos = 0;
            while (back.hasRemaining()) {
                reader.read(back, pos, "read " + pos);
                h.await(1, "read through the second wrapping channel");
                long n = h.get("read " + pos).bytes();
                assertTrue(n > 0, "bytes " + n);
                pos += n;
            }
            byte[] got = new byte[data.length];
            back.flip().get(got);
            assertArrayEquals(data, got);

            writer.close();
            reader.close();
            assertTrue(jdk.isOpen(), "closing a wrapping channel leaves the caller's file open");
            ByteBuffer first = ByteBuffer.allocate(8);
            assertEquals(8, jdk.read(first, 0));
            assertArrayEquals(java.util.Arrays.copyOf(data, 8), first.array());
            reader.read(ByteBuffer.allocate(1), 0, "after close");
            h.await(1, "read on a closed wrapping channel");
            assertInstanceOf(ClosedChannelException.class, h.get("after close").error());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aWrappedFileFollowsHowItWasOpenedAndItsClose(ProactorConfig config) throws Exception {
        Path file = dir.resolve("wrapped-modes");
        Files.write(file, new byte[] {1, 2, 3, 4});
        Completions h = new Completions();
        try (Demultiplexor demux = open(config)) {
            try (FileChannel readOnly = FileChannel.open(file, StandardOpenOption.READ);
                 AsynchChannel ch = AsynchChannel.wrapFile(demux, h, readOnly)) {
                ch.write(ByteBuffer.wrap(new byte[] {9}), 0, "write to read-only");
                ch.read(ByteBuffer.allocate(8), 1, "read");
                h.await(2, "operations on a wrapped read-only file");
                assertInstanceOf(java.nio.channels.NonWritableChannelException.class,
                        h.get("write to read-only").error());
                assertEquals(3, h.get("read").bytes());
            }
            try (FileChannel writeOnly = FileChannel.open(file, StandardOpenOption.WRITE);
                 AsynchChannel ch = AsynchChannel.wrapFile(demux, h, writeOnly)) {
                ch.read(ByteBuffer.allocate(8), 0, "read from write-only");
                h.await(1, "read of a wrapped write-only file");
                assertInstanceOf(java.nio.channels.NonReadableChannelException.class,
                        h.get("read from write-only").error());
            }
            FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ);
            AsynchChannel ch = AsynchChannel.wrapFile(demux, h, jdk);
            jdk.close();
            ch.read(ByteBuffer.allocate(8), 0, "file closed by its owner");
            h.await(1, "read after the owner closed the file");
            assertInstanceOf(ClosedChannelException.class, h.get("file closed by its owner").error());
            ch.close();
            assertThrows(ClosedChannelException.class, () -> AsynchChannel.wrapFile(demux, h, jdk));
            try (FileChannel f = FileChannel.open(file)) {
                assertThrows(IllegalArgumentException.class,
                        () -> AsynchChannel.wrapFile(demux, h, f, StandardOpenOption.CREATE));
                assertThrows(NullPointerException.class, () -> AsynchChannel.wrapFile(demux, h, null));
            }
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(file));
    }

    // ------------------------------------------------------------------------------------------ cancel and close

    /** Starts {@code perChannel} 256 KiB reads on each of {@code channels} channels of a 4 MiB file. */
    private List<AsynchChannel> startManyReads(Demultiplexor demux, Completions h, int channels, int perChannel)
            throws IOException {
        Path file = dir.resolve("many-reads");
        if (!Files.exists(file)) {
            Files.write(file, random(4 << 20, 5));
        }
        List<AsynchChannel> chs = new ArrayList<>();
        for (int c = 0; c < channels; c++) {
            chs.add(AsynchChannel.openFile(demux, h, file));
        }
        for (int i = 0; i < perChannel; i++) {
            for (int c = 0; c < channels; c++) {
                chs.get(c).read(ByteBuffer.allocateDirect(256 * 1024), (long) i * (256 * 1024), c * 1000 + i);
            }
        }
        return chs;
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void cancelCompletesEveryPendingFileOperationExactlyOnce(ProactorConfig config) throws Exception {
        int channels = 8;
        int each = 8;
        Completions h = new Completions();
        Demultiplexor demux = open(config.toBuilder().fileThreads(1).build());
        List<AsynchChannel> chs;
        try {
            chs = startManyReads(demux, h, channels, each);
            for (AsynchChannel ch : chs) {
                ch.cancel();
            }
            h.await(channels * each, "completions after cancel");
            for (Completion c : h.list()) {
                // Queued ones are cancelled; one already running on the worker completes with its data.
                if (c.error() != null) {
                    assertInstanceOf(OperationCancelledException.class, c.error());
                } else {
                    assertEquals(256 * 1024, c.bytes());
                }
            }
            // The channels stay usable.
            chs.get(0).read(ByteBuffer.allocate(4), 0, "after cancel");
            h.await(1, "read after cancel");
            assertEquals(4, h.list().get(h.size() - 1).bytes());
        } finally {
            demux.close(); // dispatches anything left: a duplicate would be counted now
        }
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < each; i++) {
                assertEquals(1, h.count(c * 1000 + i), "completions of read " + c + "/" + i);
            }
        }
        assertEquals(channels * each + 1, h.size());
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeCompletesEveryPendingFileOperationExactlyOnce(ProactorConfig config) throws Exception {
        int channels = 8;
        int each = 8;
        Completions h = new Completions();
        Demultiplexor demux = open(config.toBuilder().fileThreads(1).build());
        try {
            List<AsynchChannel> chs = startManyReads(demux, h, channels, each);
            for (AsynchChannel ch : chs) {
                ch.close();
            }
            h.await(channels * each, "completions after close");
            for (Completion c : h.list()) {
                if (c.error() != null) {
                    // Queued: AsynchronousCloseException; running when the file closed: the JDK's close error.
                    assertInstanceOf(ClosedChannelException.class, c.error());
                } else {
                    assertEquals(256 * 1024, c.bytes());
                }
            }
            AsynchChannel closed = chs.get(0);
            closed.read(ByteBuffer.allocate(4), 0, "late");
            h.await(1, "read after close");
            Throwable late = h.list().get(h.size() - 1).error();
            assertInstanceOf(ClosedChannelException.class, late);
            assertTrue(!(late instanceof AsynchronousCloseException), "a later operation fails as closed: " + late);
            assertThrows(ClosedChannelException.class, closed::size);
        } finally {
            demux.close();
        }
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < each; i++) {
                assertEquals(1, h.count(c * 1000 + i), "completions of read " + c + "/" + i);
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closingTheDemultiplexorCompletesRunningFileOperations(ProactorConfig config) throws Exception {
        int channels = 4;
        int each = 8;
        Completions h = new Completions();
        Demultiplexor demux = open(config);
        startManyReads(demux, h, channels, each);
        demux.close(); // returns after every completion was dispatched
        assertEquals(channels * each, h.size());
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < each; i++) {
                assertEquals(1, h.count(c * 1000 + i), "completions of read " + c + "/" + i);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ configuration

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void fileEngineNoneMakesOpenFileFailClearly(ProactorConfig config) throws Exception {
        Path file = dir.resolve("none");
        Files.write(file, new byte[] {1});
        // An engine that runs files itself (linux-aio) needs no file engine: the setting does not apply to it.
        boolean engineRunsFiles = ConformanceMatrix.provider(config.engine()).isAvailable()
                && engineRunsFiles(config);
        try (Demultiplexor demux = open(config.toBuilder().fileEngine(ProactorConfig.FILE_ENGINE_NONE).build())) {
            if (engineRunsFiles) {
                try (AsynchChannel ch = AsynchChannel.openFile(demux, new Completions(), file)) {
                    assertEquals(1, ch.size());
                }
                assertEquals(config.engine(), demux.getFileEngineName());
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> AsynchChannel.openFile(demux, new Completions(), file));
                assertTrue(e.getMessage().contains("proactor.fileEngine"), e.getMessage());
                assertNull(demux.getFileEngineName());
            }
        }
        try (Demultiplexor demux = open(config)) {
            assertEquals(engineRunsFiles ? config.engine() : ProactorConfig.FILE_ENGINE_THREADPOOL,
                    demux.getFileEngineName());
        }
    }

    /** Whether the configured engine runs file operations itself (then no second processor is made). */
    private static boolean engineRunsFiles(ProactorConfig config) throws IOException {
        dev.proactor.spi.EngineProvider provider = ConformanceMatrix.provider(config.engine());
        String waitStrategy = config.waitStrategy() != null ? config.waitStrategy() : provider.waitStrategies().get(0);
        try (dev.proactor.spi.Engine engine = provider.create(new dev.proactor.spi.EngineSettings(waitStrategy,
                "probe"))) {
            return engine.supports(OpKind.READ_FILE) && engine.supports(OpKind.WRITE_FILE);
        }
    }

    // ------------------------------------------------------------------------------------------ bad input

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void badInputIsRejectedAtTheCall(ProactorConfig config) throws Exception {
        Path file = dir.resolve("bad-input");
        Files.write(file, new byte[] {1, 2, 3});
        Completions h = new Completions();
        try (Demultiplexor demux = open(config); AsynchChannel ch = AsynchChannel.openFile(demux, h, file, RW)) {
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(4), -1, null));
            assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(4), -1, null));
            assertThrows(IllegalArgumentException.class,
                    () -> ch.read(ByteBuffer.allocate(4).asReadOnlyBuffer(), 0, null));
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(0), 0, null));
            assertThrows(NullPointerException.class, () -> ch.read(null, 0, null));
            assertThrows(NullPointerException.class, () -> ch.write(null, 0, null));
            // Operations of other kinds of channel.
            assertThrows(UnsupportedOperationException.class, () -> ch.read(ByteBuffer.allocate(4)));
            assertThrows(UnsupportedOperationException.class, () -> ch.write(ByteBuffer.allocate(4)));
            assertThrows(UnsupportedOperationException.class, () -> ch.receive(ByteBuffer.allocate(4)));
            assertThrows(UnsupportedOperationException.class,
                    () -> ch.send(ByteBuffer.allocate(4), new InetSocketAddress("127.0.0.1", 9)));
            assertThrows(UnsupportedOperationException.class, ch::accept);
            assertThrows(UnsupportedOperationException.class,
                    () -> ch.connect(new InetSocketAddress("127.0.0.1", 9)));
            try (FileChannel fc = FileChannel.open(file)) {
                assertThrows(UnsupportedOperationException.class,
                        () -> ch.transmitFile(fc, 0, 1, null, null, null));
            }
            assertThrows(UnsupportedOperationException.class, ch::shutdownOutput);
            assertNull(ch.getLocalAddress());
            assertNull(ch.getRemoteAddress());
            assertThrows(NoSuchFileException.class,
                    () -> AsynchChannel.openFile(demux, h, dir.resolve("does-not-exist")));
            assertThrows(NullPointerException.class, () -> AsynchChannel.openFile(demux, h, null));
            // A read-only file channel fails a write through its completion, and still reads.
            try (AsynchChannel ro = AsynchChannel.openFile(demux, h, file)) {
                ro.write(ByteBuffer.allocate(1), 0, "write to read-only");
                ro.read(ByteBuffer.allocate(8), 0, "read");
                h.await(2, "operations on a read-only file"); // two directions: in either order
                Throwable writeError = h.get("write to read-only").error();
                assertInstanceOf(java.nio.channels.NonWritableChannelException.class, writeError);
                assertEquals(3, h.get("read").bytes());
            }
            assertEquals(3, ch.size());
        }
    }
}
