package dev.proactor.jni.uring;

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
import dev.proactor.jni.IoUring;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.LinuxAioNative;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProactorOpenOption#DIRECT} on the io_uring engine: aligned direct reads and writes move the right bytes
 * through {@code O_DIRECT}, a misaligned buffer address, length or position, or a
 * heap buffer, completes with an {@link IllegalArgumentException} naming the required alignment before anything
 * reaches the ring, and a wrapped file gets {@code O_DIRECT} on its open file. Skipped, with the reason, where
 * io_uring is unavailable or the temporary directory's file system cannot do direct I/O.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IoUringDirectIoTest {

    /** A multiple of every direct-I/O alignment in practice (512 and 4096). */
    private static final int ALIGN = 4096;

    @TempDir
    Path dir;

    private record Result(Object attachment, long bytes, Throwable error) {
        static Result of(ChannelOp op) {
            return new Result(op.getAttachment(), op.getBytesCompleted(), op.getError());
        }
    }

    private final BlockingQueue<Result> done = new LinkedBlockingQueue<>();
    private final AsynchHandler handler = new AsynchHandler() {
        @Override
        public void onReadCompleted(OpRead op) {
            done.add(Result.of(op));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            done.add(Result.of(op));
        }
    };

    @BeforeEach
    void needsIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
    }

    private static Demultiplexor open() throws IOException {
        return Demultiplexor.open(ProactorConfig.builder().engine(IoUringEngineProvider.NAME).strict(true).build())
                .start();
    }

    private AsynchChannel openDirect(Demultiplexor demux, Path file) throws IOException {
        try {
            return AsynchChannel.openFile(demux, handler, file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE, ProactorOpenOption.DIRECT);
        } catch (IOException e) {
            assumeTrue(!e.getMessage().contains("direct I/O"), "no O_DIRECT on the file system of " + dir + ": "
                    + e.getMessage());
            throw e;
        }
    }

    private Result next() throws InterruptedException {
        Result op = done.poll(30, TimeUnit.SECONDS);
        assertNotNull(op, "hang guard: no completion");
        return op;
    }

    private static ByteBuffer aligned(int size) {
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

            byte[] onDisk = Files.readAllBytes(file);
            assertArrayEquals(data, java.util.Arrays.copyOfRange(onDisk, ALIGN, ALIGN + data.length));

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

            assertEquals(0, ch.size(), "nothing reached the file");
            ch.write(aligned(ALIGN), 0, "good");
            Result good = next();
            assertNull(good.error());
            assertEquals(ALIGN, good.bytes());
        }
    }

    private static void assertMisaligned(Result op, String what) {
        Throwable e = op.error();
        assertInstanceOf(IllegalArgumentException.class, e, op.toString());
        assertTrue(e.getMessage().contains("O_DIRECT needs buffer address alignment"), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void aWrappedFileGetsODirectOnItsOpenFile() throws Exception {
        Path file = dir.resolve("wrapped");
        byte[] data = new byte[ALIGN];
        new Random(9).nextBytes(data);
        Files.write(file, data);
        try (Demultiplexor demux = open(); FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = FileNative.fdOf(jdk);
            assertEquals(0, LinuxAioNative.isDirect(fd));
            AsynchChannel ch;
            try {
                ch = AsynchChannel.wrapFile(demux, handler, jdk, ProactorOpenOption.DIRECT);
            } catch (IOException e) {
                assumeTrue(!e.getMessage().contains("direct I/O"), "no O_DIRECT here: " + e.getMessage());
                throw e;
            }
            try {
                assertEquals(1, LinuxAioNative.isDirect(fd), "the caller's descriptor shares the open file");
                ByteBuffer in = aligned(ALIGN);
                ch.read(in, 0, "read");
                assertEquals(ALIGN, next().bytes());
                byte[] back = new byte[ALIGN];
                in.flip().get(back);
                assertArrayEquals(data, back);
                ch.read(ByteBuffer.allocate(ALIGN), 0, "heap");
                assertMisaligned(next(), "heap buffer");
            } finally {
                ch.close();
            }
            assertTrue(jdk.isOpen());
        }
    }
}
