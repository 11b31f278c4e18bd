package dev.proactor.jni.aio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.ProactorOpenOption;
import dev.proactor.jni.engine.AbstractDirectIoTest;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.epoll.EpollEngineProvider;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.LinuxAioNative;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ProactorOpenOption#DIRECT} on the Linux AIO engine: the shared direct-I/O tests
 * ({@link AbstractDirectIoTest}), the alignment read from the file, O_DIRECT on the descriptor, the thread-pool
 * file engine refusing DIRECT, and set-up failures naming their cause.
 */
class LinuxAioDirectIoTest extends AbstractDirectIoTest {

    @Override
    protected String engine() {
        return LinuxAioEngineProvider.NAME;
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
