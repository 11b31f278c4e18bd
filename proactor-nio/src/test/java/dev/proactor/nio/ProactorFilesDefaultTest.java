package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.nio2.ProactorFiles;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProactorFiles} without a demultiplexor: the default one is made once, from the {@code proactor.*}
 * properties (none are set in this JVM: the nio engine, files on the thread-pool engine), started, and shared; its
 * threads run the handlers. Opening follows {@code FileChannel.open}: its errors, its checks of combinations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProactorFilesDefaultTest {

    @TempDir
    Path dir;

    @Test
    void channelsWithoutADemultiplexorShareTheDefaultOne() throws Exception {
        Demultiplexor d = ProactorFiles.defaultDemultiplexor();
        assertSame(d, ProactorFiles.defaultDemultiplexor(), "made once");
        assertEquals("nio", d.getEngineName());
        assertEquals("threadpool", d.getFileEngineName());
        assertTrue(d.getPoolSize() > 0, "started");
        Path file = dir.resolve("default");
        try (FileChannel ch = ProactorFiles.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.CREATE_NEW)) {
            assertEquals(5, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5})));
            ByteBuffer back = ByteBuffer.allocate(5);
            assertEquals(5, ch.read(back, 0));
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, back.array());
        }
        try (AsynchronousFileChannel ch = ProactorFiles.openAsynchronous(file)) {
            CompletableFuture<Thread> where = new CompletableFuture<>();
            ByteBuffer dst = ByteBuffer.allocateDirect(5);
            ch.read(dst, 1, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object attachment) {
                    where.complete(Thread.currentThread());
                }

                @Override
                public void failed(Throwable e, Object attachment) {
                    where.completeExceptionally(e);
                }
            });
            String thread = where.get(30, TimeUnit.SECONDS).getName();
            assertTrue(thread.startsWith("proactor-"), "the handler runs on a pool thread of the default demultiplexor"
                    + " (proactor-N-M), was " + thread);
            assertEquals(4, dst.position());
        }
        assertFalse(d.isClosed(), "closing channels leaves the default demultiplexor running");
    }

    @Test
    void openingFollowsFileChannelOpen() {
        Path missing = dir.resolve("missing");
        assertThrows(NoSuchFileException.class, () -> ProactorFiles.open(missing));
        assertThrows(NoSuchFileException.class, () -> ProactorFiles.openAsynchronous(missing));
        assertThrows(IllegalArgumentException.class, () -> ProactorFiles.open(missing, StandardOpenOption.READ,
                StandardOpenOption.APPEND, StandardOpenOption.CREATE));
        assertThrows(UnsupportedOperationException.class, () -> ProactorFiles.openAsynchronous(missing,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND, StandardOpenOption.CREATE));
        assertThrows(UnsupportedOperationException.class, () -> ProactorFiles.open(missing,
                StandardOpenOption.WRITE, StandardOpenOption.CREATE, dev.proactor.ProactorOpenOption.DIRECT),
                "the thread-pool file engine has no O_DIRECT");
        assertThrows(UnsupportedOperationException.class, () -> ProactorFiles.openAsynchronous(missing,
                StandardOpenOption.WRITE, StandardOpenOption.CREATE, dev.proactor.ProactorOpenOption.DIRECT));
        assertFalse(Files.exists(missing), "a refused open creates nothing");
        assertThrows(NullPointerException.class, () -> ProactorFiles.open(null, missing));
    }
}
