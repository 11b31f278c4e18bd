package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * {@code threads} virtual threads (JDK 21+), each in a loop of blocking positional reads of one
 * {@link FileChannel}, the JDK's or {@link dev.proactor.nio2.ProactorFiles}': the "thread per request" program
 * virtual threads are for. Each thread owns one aligned direct buffer and its own xorshift offsets (random) or takes
 * the next block of one shared counter (sequential); every read is checked against the block tags, its latency
 * (call to return) recorded; counting starts after the warm-up; after the window every thread finishes its read
 * and ends. The peak of the process's OS threads during the window is part of the result: a JDK channel blocks a
 * carrier per read (the JDK adds carriers to compensate), ours parks the virtual thread.
 */
final class VirtualThreadReadRow {

    private static final long JOIN_SECONDS = 60;

    private final Workload workload;
    private final int threads;
    private final long fileSize;
    private final Recorder recorder = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    private final LongAdder ops = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder checked = new LongAdder();
    private final AtomicLong sequential = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile int phase; // 0 warm-up, 1 measured, 2 stopping

    VirtualThreadReadRow(Workload workload, int threads, long fileSize) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive, was " + threads);
        }
        this.workload = workload;
        this.threads = threads;
        this.fileSize = fileSize / workload.blockSize() * workload.blockSize();
    }

    /**
     * Runs the warm-up and the measured window on {@code channel}, then stops every thread.
     *
     * @throws IOException the first failed or wrong read, or threads that did not end
     */
    ReadLoop.Measurement measure(FileChannel channel, double warmupSeconds, double seconds)
            throws IOException, InterruptedException {
        if (!VirtualThreads.available()) {
            throw new UnsupportedOperationException("virtual-thread rows need JDK 21+, this is " + Runtime.version()
                    + " (pass --vt-java)");
        }
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            long seed = 0x9E3779B97F4A7C15L * (i + 1);
            all.add(VirtualThreads.start(() -> loop(channel, seed)));
        }
        sleep(warmupSeconds);
        recorder.reset();
        ops.reset();
        bytes.reset();
        ThreadSampler sampler = ThreadSampler.start();
        phase = 1;
        long t0 = System.nanoTime();
        sleep(seconds);
        phase = 2;
        long t1 = System.nanoTime();
        sampler.stop();
        long n = ops.sum();
        long b = bytes.sum();
        Histogram h = recorder.getIntervalHistogram();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_SECONDS);
        for (Thread t : all) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                throw new IOException("a reading thread did not end within " + JOIN_SECONDS + " s after the window");
            }
        }
        Throwable f = failure.get();
        if (f != null) {
            throw f instanceof IOException io ? io : new IOException("read failed: " + f, f);
        }
        return new ReadLoop.Measurement(n, b, (t1 - t0) / 1e9, h.getValueAtPercentile(50) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, checked.sum(), sampler.peakThreads(), sampler.peakIoWorkers());
    }

    private void sleep(double seconds) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        for (long left; (left = end - System.nanoTime()) > 0 && failure.get() == null; ) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
    }

    /** One virtual thread: reads until the window ends or a read fails. */
    private void loop(FileChannel channel, long seed) {
        int size = workload.blockSize();
        ByteBuffer buffer = ByteBuffer.allocateDirect(size + TestFile.BLOCK).alignedSlice(TestFile.BLOCK).limit(size)
                .slice().order(ByteOrder.LITTLE_ENDIAN);
        long rng = seed == 0 ? 1 : seed;
        long blocks = fileSize / TestFile.BLOCK;
        try {
            while (phase != 2 && failure.get() == null) {
                long position;
                if (workload == Workload.RANDREAD) {
                    rng ^= rng >>> 12;
                    rng ^= rng << 25;
                    rng ^= rng >>> 27;
                    position = Long.remainderUnsigned(rng * 0x2545F4914F6CDD1DL, blocks) * TestFile.BLOCK;
                } else {
                    position = Long.remainderUnsigned(sequential.getAndAdd(size), fileSize);
                }
                buffer.clear();
                long start = System.nanoTime();
                int n = channel.read(buffer, position);
                long end = System.nanoTime();
                if (n != size) {
                    throw new IOException("short read: " + n + " of " + size + " bytes at " + position);
                }
                for (int i = 0; i < size; i += TestFile.BLOCK) {
                    if (!TestFile.tagMatches(buffer, i, position + i)) {
                        throw new IOException("block at " + (position + i) + " holds the wrong data");
                    }
                }
                checked.add(size);
                if (phase == 1) {
                    ops.increment();
                    bytes.add(n);
                    recorder.recordValue(Math.min(end - start, TimeUnit.SECONDS.toNanos(60)));
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }
}
