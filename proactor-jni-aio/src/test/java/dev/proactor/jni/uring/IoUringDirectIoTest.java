package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorOpenOption;
import dev.proactor.jni.engine.AbstractDirectIoTest;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.LinuxAioNative;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ProactorOpenOption#DIRECT} on the io_uring engine: the shared direct-I/O tests ({@link AbstractDirectIoTest})
 * and a wrapped file getting {@code O_DIRECT} on its open file.
 */
class IoUringDirectIoTest extends AbstractDirectIoTest {

    @Override
    protected String engine() {
        return IoUringEngineProvider.NAME;
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
