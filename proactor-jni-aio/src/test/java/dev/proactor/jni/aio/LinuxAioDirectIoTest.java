package dev.proactor.jni.aio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import dev.proactor.jni.LinuxAio;
import dev.proactor.jni.epoll.EpollEngineProvider;
import dev.proactor.jni.internal.DirectIoAlignment;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.LinuxAioNative;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProactorOpenOption#DIRECT} on the Linux AIO engine: aligned direct reads and writes move the right bytes,
 * and a misaligned buffer address, length or position, or a heap buffer, completes with an
 * {@link IllegalArgumentException} naming the required alignment. Skipped, with the reason, where Linux AIO is
 * unavailable or the temporary directory's file system cannot do direct I/O (e.g. an old tmpfs).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LinuxAioDirectIoTest {

    /** A multiple of every direct-I/O alignment in practice (512 and 4096); checked against the real one. */
    private static final int ALIGN = 4096;

    @TempDir
    Path dir;

    /** What a completion said, copied in the callback (the operation object is reused after it). */
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
    void needsLinuxAio() {
        assumeTrue(LinuxAio.isAvailable(), () -> "linux-aio unavailable: " + LinuxAio.unavailabilityCause());
    }

    private static Demultiplexor open() throws IOException {
        return Demultiplexor.open(ProactorConfig.builder().engine(LinuxAioEngineProvider.NAME).strict(true).build())
                .start();
    }

    /** Opens {@code file} with O_DIRECT, or skips the test if this file system has no direct I/O. */
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

            // The bytes are on the file: a buffered reader sees them.
            byte[] onDisk = Files.readAllBytes(file);
            assertEquals(0, onDisk[0]);
            assertArrayEquals(data, java.util.Arrays.copyOfRange(onDisk, ALIGN, ALIGN + data.length));

            // Reading past the end with an aligned length is a short read, then end of stream.
            ByteBuffer tail = aligned(2 * ALIGN);
            ch.read(tail, 4L * ALIGN, "tail");
            assertEquals(ALIGN, next().bytes());
            ch.read(aligned(ALIGN), 5L * ALIGN, "end");
            assertEquals(-1, next().bytes());
        }
    }

    @Test
    void misalignedRequestsFailWithTheRequiredAlignment() throws Exception {
        Path file = dir.resolve("misaligned");
        try (Demultiplexor demux = open(); AsynchChannel ch = openDirect(demux, file)) {
            ByteBuffer base = ByteBuffer.allocateDirect(4 * ALIGN).alignedSlice(ALIGN);
            ByteBuffer badAddress = base.position(1).slice().limit(ALIGN);
            ch.write(badAddress, 0, "address");
            assertMisaligned(next(), "buffer address");

            ch.read(aligned(ALIGN - 1), 0, "length");
            assertMisaligned(next(), "length");

            ch.read(aligned(ALIGN), 1, "position");
            assertMisaligned(next(), "file position");

            ch.write(ByteBuffer.allocate(ALIGN), 0, "heap");
            assertMisaligned(next(), "heap buffer");

            // Nothing reached the file, and the channel still works.
            assertEquals(0, ch.size());
            ch.write(aligned(ALIGN), 0, "good");
            assertNull(next().error());
        }
    }

    private static void assertMisaligned(Result op, String what) {
        Throwable e = op.error();
        assertInstanceOf(IllegalArgumentException.class, e, op.toString());
        assertTrue(e.getMessage().contains("O_DIRECT needs buffer address alignment"), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void theAlignmentComesFromTheFileAndTheDescriptorHasODirect() throws Exception {
        Path file = dir.resolve("alignment");
        Files.write(file, new byte[0]);
        AioFileChannel ch;
        try {
            ch = AioFileChannel.open(file, Set.of(StandardOpenOption.READ, ProactorOpenOption.DIRECT));
        } catch (IOException e) {
            assumeTrue(!e.getMessage().contains("direct I/O"), "no O_DIRECT here: " + e.getMessage());
            throw e;
        }
        try {
            assertEquals(1, LinuxAioNative.isDirect(ch.fd));
            DirectIoAlignment a = ch.alignment;
            assertNotNull(a);
            assertTrue(a.memory() > 0 && ALIGN % a.memory() == 0, a.toString());
            assertTrue(a.offset() > 0 && ALIGN % a.offset() == 0, a.toString());
            assertNull(a.violation(ALIGN, ALIGN, ALIGN));
        } finally {
            ch.close();
        }
        AioFileChannel buffered = AioFileChannel.open(file, Set.of(StandardOpenOption.READ));
        try {
            assertEquals(0, LinuxAioNative.isDirect(buffered.fd));
            assertNull(buffered.alignment);
        } finally {
            buffered.close();
        }
    }

    @Test
    void theThreadPoolFileEngineRefusesDirect() throws Exception {
        Path file = dir.resolve("pool");
        Files.write(file, new byte[1]);
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.builder().engine(EpollEngineProvider.NAME)
                .build()).start()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> AsynchChannel.openFile(demux, handler, file, ProactorOpenOption.DIRECT));
            assertTrue(e.getMessage().contains("linux-aio"), e.getMessage());
        }
    }

    @Test
    void setupFailuresNameTheirCause() {
        assertTrue(LinuxAioSupport.setupFailure(256, -ErrnoNative.EAGAIN).getMessage()
                .contains("/proc/sys/fs/aio-max-nr"));
        assertTrue(LinuxAioSupport.setupFailure(256, -ErrnoNative.EPERM).getMessage().contains("seccomp"));
        assertTrue(LinuxAioSupport.setupFailure(256, -ErrnoNative.ENOSYS).getMessage().contains("seccomp"));
    }
}
