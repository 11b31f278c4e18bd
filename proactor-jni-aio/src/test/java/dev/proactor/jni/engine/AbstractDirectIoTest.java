package dev.proactor.jni.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.ChannelOp;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.ProactorOpenOption;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.spi.EngineProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProactorOpenOption#DIRECT} on an engine that runs files itself, written once for io_uring and Linux AIO:
 * aligned direct reads and writes move the right bytes, and a misaligned buffer address, length or position, or
 * a heap buffer, completes with an {@link IllegalArgumentException} naming the required alignment before anything
 * reaches the kernel. Skipped, with the reason, where the engine is unavailable or the temporary directory's file
 * system cannot do direct I/O (e.g. an old tmpfs). Subclasses name the engine and add what is theirs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class AbstractDirectIoTest {

    /** A multiple of every direct-I/O alignment in practice (512 and 4096); checked against the real one. */
    protected static final int ALIGN = 4096;

    @TempDir
    protected Path dir;

    /** What a completion said, copied in the callback (the operation object is reused after it). */
    protected record Result(Object attachment, long bytes, Throwable error) {
        static Result of(ChannelOp op) {
            return new Result(op.getAttachment(), op.getBytesCompleted(), op.getError());
        }
    }

    private final BlockingQueue<Result> done = new LinkedBlockingQueue<>();
    protected final AsynchHandler handler = new AsynchHandler() {
        @Override
        public void onReadCompleted(OpRead op) {
            done.add(Result.of(op));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            done.add(Result.of(op));
        }
    };

    /** The engine under test (its provider's name). */
    protected abstract String engine();

    @BeforeEach
    void needsTheEngine() {
        EngineProvider p = ConformanceMatrix.provider(engine());
        assumeTrue(p.isAvailable(), () -> engine() + " unavailable: " + p.unavailabilityCause());
    }

    protected Demultiplexor open() throws IOException {
        return Demultiplexor.open(ProactorConfig.builder().engine(engine()).strict(true).build()).start();
    }

    /** Opens {@code file} with O_DIRECT, or skips the test if this file system has no direct I/O. */
    protected AsynchChannel openDirect(Demultiplexor demux, Path file) throws IOException {
        try {
            return AsynchChannel.openFile(demux, handler, file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE, ProactorOpenOption.DIRECT);
        } catch (IOException e) {
            assumeTrue(!e.getMessage().contains("direct I/O"), "no O_DIRECT on the file system of " + dir + ": "
                    + e.getMessage());
            throw e;
        }
    }

    protected Result next() throws InterruptedException {
        Result op = done.poll(30, TimeUnit.SECONDS);
        assertNotNull(op, "hang guard: no completion");
        return op;
    }

    protected static ByteBuffer aligned(int size) {
        return ByteBuffer.allocateDirect(size + ALIGN).alignedSlice(ALIGN).limit(size);
    }

    @Test
    void alignedDirectWritesAndReadsMoveTheBytes() throws Exception {
        Path file = dir.resolve("direct");
        byte[] data = new byte[4 * ALIGN];
        new Random(7).nextBytes(data);
        try (Demultiplexor demux = open(); AsynchChannel ch = openDirect(demux, file)) {
            ByteBuffer out = aligned(data.length);
            out.put(data).flip();
            ch.write(out, ALIGN, "write");
            Result w = next();
            assertNull(w.error());
            assertEquals(data.length, w.bytes());
            assertEquals(5L * ALIGN, ch.size());

            ByteBuffer in = aligned(data.length);
            ch.read(in, ALIGN, "read");
            Result r = next();
            assertNull(r.error());
            assertEquals(data.length, r.bytes());
            byte[] back = new byte[data.length];
            in.flip().get(back);
            assertArrayEquals(data, back);

            // The bytes are on the file: a buffered reader sees them.
            byte[] onDisk = Files.readAllBytes(file);
            assertEquals(0, onDisk[0]);
            assertArrayEquals(data, Arrays.copyOfRange(onDisk, ALIGN, ALIGN + data.length));

            // Reading past the end with an aligned length is a short read, then end of stream.
            ByteBuffer tail = aligned(2 * ALIGN);
            ch.read(tail, 4L * ALIGN, "tail");
            assertEquals(ALIGN, next().bytes(), "a read across the end is short");
            ch.read(aligned(ALIGN), 5L * ALIGN, "end");
            assertEquals(-1, next().bytes());
        }
    }

    @Test
    void misalignedRequestsFailWithTheRequiredAlignment() throws Exception {
        Path file = dir.resolve("misaligned");
        try (Demultiplexor demux = open(); AsynchChannel ch = openDirect(demux, file)) {
            ByteBuffer base = ByteBuffer.allocateDirect(4 * ALIGN).alignedSlice(ALIGN);
            ch.write(base.position(1).slice().limit(ALIGN), 0, "address");
            assertMisaligned(next(), "buffer address");

            ch.read(aligned(ALIGN - 1), 0, "length");
            assertMisaligned(next(), "length");

            ch.read(aligned(ALIGN), 1, "position");
            assertMisaligned(next(), "file position");

            ch.write(ByteBuffer.allocate(ALIGN), 0, "heap write");
            assertMisaligned(next(), "heap buffer");
            ch.read(ByteBuffer.allocate(ALIGN), 0, "heap read");
            assertMisaligned(next(), "heap buffer");

            // Nothing reached the file, and the channel still works.
            assertEquals(0, ch.size(), "nothing reached the file");
            ch.write(aligned(ALIGN), 0, "good");
            Result good = next();
            assertNull(good.error());
            assertEquals(ALIGN, good.bytes());
        }
    }

    protected static void assertMisaligned(Result op, String what) {
        Throwable e = op.error();
        assertInstanceOf(IllegalArgumentException.class, e, op.toString());
        assertTrue(e.getMessage().contains("O_DIRECT needs buffer address alignment"), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
