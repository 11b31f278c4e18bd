package dev.proactor.nio2.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ManualEngineProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transfers that fail after moving some bytes ({@link FaultyFile} on the thread-pool file engine): a heap buffer
 * moves in bounce chunks and a scattering or gathering transfer buffer by buffer, so a later step can fail after an
 * earlier one moved bytes. As the JDK's channels, whose transfer is one system call, they report what they moved
 * (and a relative one advances the position by it) and throw only when nothing moved, so buffer, position and file
 * always agree and a retry neither repeats nor skips a byte. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PartialTransfersTest {

    private static final int CHUNK = BounceBuffers.MAX;
    private static final int SIZE = CHUNK + 40_000;
    /** The default {@code proactor.fileLanes}, as the channels had when the configuration carried it. */
    private static final FileSettings DEFAULT_LANES = new FileSettings(FileSettings.DEFAULT_LANES);

    @TempDir
    Path dir;

    private Demultiplexor demux;
    private byte[] data;
    private Path file;

    @BeforeEach
    void openDemultiplexor() throws IOException {
        demux = Demultiplexor.open(ProactorConfig.builder().engine(ManualEngineProvider.NAME).threads(2)
                .strict(true).build()).start();
        data = new byte[SIZE];
        new Random(5).nextBytes(data);
        file = dir.resolve("faulty");
        Files.write(file, data);
    }

    @AfterEach
    void closeDemultiplexor() {
        demux.close();
    }

    private ProactorFileChannel channel(long failFrom) throws IOException {
        return new ProactorFileChannel(demux, FaultyFile.open(file, failFrom),
                FileOptions.of(StandardOpenOption.READ, StandardOpenOption.WRITE), DEFAULT_LANES);
    }

    private ProactorAsynchronousFileChannel asynchronous(long failFrom) throws IOException {
        return new ProactorAsynchronousFileChannel(demux, FaultyFile.open(file, failFrom),
                FileOptions.ofAsynchronous(StandardOpenOption.READ, StandardOpenOption.WRITE), DEFAULT_LANES);
    }

    private static byte[] head(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(0, out);
        return out;
    }

    @Test
    void aRelativeHeapReadFailingOnItsSecondChunkReportsTheFirst() throws Exception {
        try (ProactorFileChannel ch = channel(CHUNK)) {
            ByteBuffer dst = ByteBuffer.allocate(SIZE);
            assertEquals(CHUNK, ch.read(dst), "the bytes of the first chunk, not the second chunk's error");
            assertEquals(CHUNK, dst.position());
            assertEquals(CHUNK, ch.position(), "the position advanced by what was read");
            assertArrayEquals(Arrays.copyOf(data, CHUNK), head(dst, CHUNK));
            IOException e = assertThrows(IOException.class, () -> ch.read(dst), "nothing more can be read");
            assertEquals("injected failure at position " + CHUNK, e.getMessage());
            assertEquals(CHUNK, dst.position(), "a read that moved nothing leaves the buffer");
            assertEquals(CHUNK, ch.position(), "and the position");
        }
    }

    @Test
    void aPositionalHeapReadFailingOnItsSecondChunkReportsTheFirst() throws Exception {
        try (ProactorFileChannel ch = channel(CHUNK)) {
            ByteBuffer dst = ByteBuffer.allocate(SIZE);
            assertEquals(CHUNK, ch.read(dst, 0));
            assertEquals(CHUNK, dst.position());
            assertArrayEquals(Arrays.copyOf(data, CHUNK), head(dst, CHUNK));
            assertEquals(0, ch.position());
        }
    }

    @Test
    void aScatteringReadFailingOnItsSecondBufferReportsTheFirst() throws Exception {
        try (ProactorFileChannel ch = channel(100)) {
            ByteBuffer[] dsts = {ByteBuffer.allocate(100), ByteBuffer.allocateDirect(100)};
            assertEquals(100, ch.read(dsts));
            assertEquals(100, ch.position());
            assertEquals(0, dsts[1].position());
            assertArrayEquals(Arrays.copyOf(data, 100), dsts[0].array());
            assertThrows(IOException.class, () -> ch.read(dsts));
            assertEquals(100, ch.position());
        }
    }

    @Test
    void aRelativeHeapWriteFailingOnItsSecondChunkReportsTheFirst() throws Exception {
        byte[] update = new byte[SIZE];
        new Random(6).nextBytes(update);
        try (ProactorFileChannel ch = channel(CHUNK)) {
            ByteBuffer src = ByteBuffer.wrap(update);
            assertEquals(CHUNK, ch.write(src));
            assertEquals(CHUNK, src.position());
            assertEquals(CHUNK, ch.position());
            assertThrows(IOException.class, () -> ch.write(src));
            assertEquals(CHUNK, src.position(), "a write that moved nothing leaves the buffer");
            assertEquals(CHUNK, ch.position(), "and the position");
        }
        byte[] expected = data.clone();
        System.arraycopy(update, 0, expected, 0, CHUNK);
        assertArrayEquals(expected, Files.readAllBytes(file));
    }

    @Test
    void aDirectWriteFailingAfterSomeBytesReportsThem() throws Exception {
        try (ProactorFileChannel ch = channel(100)) {
            ByteBuffer src = ByteBuffer.allocateDirect(300).put(new byte[300]).flip();
            assertEquals(100, ch.write(src), "written before the error");
            assertEquals(100, src.position());
            assertEquals(100, ch.position());
            ByteBuffer[] srcs = {ByteBuffer.allocate(0), src};
            assertThrows(IOException.class, () -> ch.write(srcs));
            assertEquals(100, ch.position());
        }
    }

    @Test
    void aGatheringWriteFailingOnItsSecondBufferReportsTheFirst() throws Exception {
        try (ProactorFileChannel ch = channel(100)) {
            ByteBuffer[] srcs = {ByteBuffer.allocate(100), ByteBuffer.allocate(100)};
            assertEquals(100, ch.write(srcs));
            assertEquals(100, ch.position());
            assertEquals(0, srcs[1].position());
        }
    }

    @Test
    void anAsynchronousHeapReadFailingOnItsSecondChunkCompletesWithTheFirst() throws Exception {
        try (ProactorAsynchronousFileChannel ch = asynchronous(CHUNK)) {
            ByteBuffer dst = ByteBuffer.allocate(SIZE);
            assertEquals(CHUNK, ch.read(dst, 0).get(60, TimeUnit.SECONDS));
            assertEquals(CHUNK, dst.position());
            assertArrayEquals(Arrays.copyOf(data, CHUNK), head(dst, CHUNK));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> ch.read(dst, CHUNK).get(60, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, e.getCause());
            assertEquals(CHUNK, dst.position(), "a read that moved nothing leaves the buffer");
        }
    }

    @Test
    void anAsynchronousWriteFailingAfterSomeBytesCompletesWithThem() throws Exception {
        try (ProactorAsynchronousFileChannel ch = asynchronous(CHUNK)) {
            ByteBuffer heap = ByteBuffer.allocate(SIZE);
            assertEquals(CHUNK, ch.write(heap, 0).get(60, TimeUnit.SECONDS), "a heap write, chunk by chunk");
            assertEquals(CHUNK, heap.position());
            ByteBuffer direct = ByteBuffer.allocateDirect(300);
            assertEquals(100, ch.write(direct, CHUNK - 100).get(60, TimeUnit.SECONDS), "a direct write");
            assertEquals(100, direct.position());
        }
    }
}
