package dev.proactor.nio2.files;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.DelegatingFileChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A slow source: a file whose positional reads wait, on the thread-pool file engine's worker that runs them, until
 * the test {@link #release() releases} them, so a caller stays blocked in a read for as long as the test wants.
 */
final class GatedFile extends DelegatingFileChannel {

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger entered = new AtomicInteger();

    private GatedFile(FileChannel delegate) {
        super(delegate);
    }

    /** {@code path} opened for reading and writing, its positional reads gated. */
    static GatedFile open(Path path) throws IOException {
        return new GatedFile(FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        entered.incrementAndGet();
        try {
            assertTrue(release.await(60, TimeUnit.SECONDS), "hang guard: the test never released the read");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return super.read(dst, position);
    }

    /** Reads that have reached the gate (are running on a worker). */
    int entered() {
        return entered.get();
    }

    /** Lets every read through, those waiting and those to come. */
    void release() {
        release.countDown();
    }
}
