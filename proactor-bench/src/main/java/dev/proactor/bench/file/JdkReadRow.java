package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK baseline: {@link AsynchronousFileChannel} on Linux runs each read as a blocking {@code pread} on a
 * thread of its executor (there is no kernel asynchronous file I/O in the JDK). The executor here is a fixed pool
 * of {@code threads} threads, the counterpart of {@code proactor.fileThreads} of the thread-pool file engine.
 * {@code O_DIRECT} comes from the JDK's {@code ExtendedOpenOption.DIRECT} ({@link JdkDirectOption}).
 */
final class JdkReadRow extends ReadLoop implements CompletionHandler<Integer, ReadLoop.Slot> {

    private final Path path;
    private final boolean direct;
    private final int threads;
    private AsynchronousFileChannel channel;

    JdkReadRow(Path path, long fileSize, Workload workload, int depth, boolean direct, int threads) {
        super(workload, depth, fileSize);
        this.path = path;
        this.direct = direct;
        this.threads = threads;
    }

    /** Opens the file on a fresh executor, runs the row and closes both. */
    Measurement measure(double warmupSeconds, double seconds) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "jdk-afc");
            t.setDaemon(true);
            return t;
        });
        try {
            Set<OpenOption> options = direct ? Set.of(StandardOpenOption.READ, JdkDirectOption.get())
                    : Set.of(StandardOpenOption.READ);
            channel = AsynchronousFileChannel.open(path, options, pool);
            try {
                return run(warmupSeconds, seconds);
            } finally {
                channel.close();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Override
    void issue(Slot slot) {
        channel.read(slot.buffer, slot.position, slot, this);
    }

    @Override
    public void completed(Integer n, Slot slot) {
        completed(slot, n, null);
    }

    @Override
    public void failed(Throwable error, Slot slot) {
        completed(slot, 0, error);
    }
}
