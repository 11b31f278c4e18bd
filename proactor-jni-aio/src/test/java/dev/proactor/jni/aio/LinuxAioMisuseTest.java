package dev.proactor.jni.aio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A misuse or a huge buffer costs only its own Linux AIO operation: a buffer changed while its read is in flight
 * fails that read, and the rest of the same {@code io_getevents} batch completes (and {@code close} returns); a heap
 * buffer far larger than the bounce cap moves through a capped bounce block (a short read, a complete write).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LinuxAioMisuseTest {

    @TempDir
    Path dir;

    private static final class Results implements AsynchHandler {
        final Map<Object, OpResult> byAttachment = new ConcurrentHashMap<>();

        record OpResult(long bytes, Throwable error) {
        }

        @Override
        public void onReadCompleted(OpRead op) {
            byAttachment.put(op.getAttachment(), new OpResult(op.getBytesCompleted(), op.getError()));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            byAttachment.put(op.getAttachment(), new OpResult(op.getBytesCompleted(), op.getError()));
        }
    }

    private static ProactorConfig config() {
        LinuxAioEngineProvider p = new LinuxAioEngineProvider();
        assumeTrue(p.isAvailable(), () -> "linux-aio unavailable: " + p.unavailabilityCause());
        return ProactorConfig.builder().engine(LinuxAioEngineProvider.NAME).threads(1).strict(true).build();
    }

    private Path fileOf(int size) throws Exception {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) i;
        }
        return Files.write(dir.resolve("data"), bytes);
    }

    @Test
    void aBufferChangedWhileItsReadIsInFlightFailsOnlyThatRead() throws Exception {
        ProactorConfig config = config();
        Path file = fileOf(64 * 1024);
        Results h = new Results();
        Demultiplexor demux = Demultiplexor.open(config); // not started: the reads complete in one harvest
        Thread closer = null;
        try {
            AsynchChannel ch = AsynchChannel.openFile(demux, h, file, StandardOpenOption.READ);
            ByteBuffer[] buffers = new ByteBuffer[3];
            for (int i = 0; i < 3; i++) {
                buffers[i] = ByteBuffer.allocate(4096); // heap: through the bounce block
                AsynchChannel reader = i == 0 ? ch : AsynchChannel.openFile(demux, h, file, StandardOpenOption.READ);
                reader.read(buffers[i], i * 4096L, i);
            }
            buffers[1].limit(0); // misuse: the buffer of a read in flight changed
            for (int i = 0; i < 100 && h.byAttachment.size() < 3; i++) {
                demux.handleEvents(50, TimeUnit.MILLISECONDS);
            }
            assertEquals(3, h.byAttachment.size(), "every read of the batch completes: " + h.byAttachment);
            assertNull(h.byAttachment.get(0).error());
            assertEquals(4096L, h.byAttachment.get(0).bytes());
            assertNotNull(h.byAttachment.get(1).error(), "the misused read fails");
            assertNull(h.byAttachment.get(2).error());
            assertEquals(4096L, h.byAttachment.get(2).bytes());
        } finally {
            Demultiplexor d = demux;
            closer = new Thread(d::close, "closer");
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertFalse(closer.isAlive(), "close() hangs: an iocb is still counted in flight");
    }

    @Test
    void aHugeHeapBufferMovesThroughACappedBounceBlock() throws Exception {
        ProactorConfig config = config();
        int size = 32 << 20;
        Path file = fileOf(size);
        Results h = new Results();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            AsynchChannel ch = AsynchChannel.openFile(demux, h, file, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            ByteBuffer big = ByteBuffer.allocate(size);
            ch.read(big, 0, "read");
            for (int i = 0; i < 6000 && !h.byAttachment.containsKey("read"); i++) {
                Thread.sleep(10); // hang guard
            }
            Results.OpResult read = h.byAttachment.get("read");
            assertNull(read.error());
            assertTrue(read.bytes() > 0 && read.bytes() <= AioSlot.MAX_BOUNCE,
                    "a heap read transfers at most one bounce block (short read), was " + read.bytes());
            for (int i = 0; i < read.bytes(); i++) {
                assertEquals((byte) i, big.get(i));
            }
            ByteBuffer out = ByteBuffer.allocate(size);
            for (int i = 0; i < size; i++) {
                out.put(i, (byte) ~i);
            }
            ch.write(out, 0, "write");
            for (int i = 0; i < 6000 && !h.byAttachment.containsKey("write"); i++) {
                Thread.sleep(10); // hang guard
            }
            Results.OpResult write = h.byAttachment.get("write");
            assertNull(write.error());
            assertEquals(size, write.bytes(), "a write writes everything, bounce block after bounce block");
            byte[] back = Files.readAllBytes(file);
            for (int i = 0; i < size; i += 4093) {
                assertEquals((byte) ~i, back[i]);
            }
        }
    }
}
