package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Keeps exactly {@code depth} reads of a {@link TestFile} in flight: each of {@code depth} slots owns one aligned
 * direct buffer, and its completion checks the block tags, records the latency and starts the slot's next read.
 * Subclasses only open the file and start one read ({@link #issue(Slot)}), and report its end with
 * {@link #completed(Slot, int, Throwable)} from whatever thread the engine completes on.
 *
 * <p>Nothing is allocated per read: offsets come from a per-slot xorshift generator (random) or one shared counter
 * (sequential), latencies go to a wait-free {@link Recorder}. Counting starts after the warm-up; after the measured
 * window no slot starts another read and {@link #run} waits until every read in flight has ended, so nothing is
 * left running when the file is closed.
 */
abstract class ReadLoop {

    /** How long {@link #run} waits for the reads in flight to end after the window. */
    private static final long DRAIN_SECONDS = 30;

    /** One read in flight at a time: its buffer, where it reads, and when it started. */
    static final class Slot {
        final int index;
        final ByteBuffer buffer;
        long position;
        long startNanos;
        long rng;

        Slot(int index, int size, long seed) {
            this.index = index;
            ByteBuffer raw = ByteBuffer.allocateDirect(size + TestFile.BLOCK);
            buffer = raw.alignedSlice(TestFile.BLOCK).limit(size).slice().order(ByteOrder.LITTLE_ENDIAN);
            rng = seed == 0 ? 1 : seed;
        }
    }

    final Workload workload;
    final int depth;
    final long fileSize;
    private final Recorder recorder = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    private final LongAdder ops = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final AtomicLong sequential = new AtomicLong();
    private final CountDownLatch drained;
    private final CountDownLatch failed = new CountDownLatch(1);
    private volatile int phase; // 0 warm-up, 1 measured, 2 stopping
    private volatile Throwable failure;
    private final LongAdder checkedBytes = new LongAdder();

    ReadLoop(Workload workload, int depth, long fileSize) {
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be positive, was " + depth);
        }
        if (fileSize < workload.blockSize()) {
            throw new IllegalArgumentException("file of " + fileSize + " bytes is smaller than one read");
        }
        this.workload = workload;
        this.depth = depth;
        this.fileSize = fileSize / workload.blockSize() * workload.blockSize();
        this.drained = new CountDownLatch(depth);
    }

    /** Starts one read of {@code slot.buffer} (cleared) at {@code slot.position}. Any thread. */
    abstract void issue(Slot slot) throws IOException;

    /**
     * Runs the warm-up and the measured window, then waits for the reads in flight.
     *
     * @return counts and latency percentiles of the window (the row name and note are the caller's)
     * @throws IOException the first read failure or wrong block, or reads that did not end
     */
    final Measurement run(double warmupSeconds, double seconds) throws IOException, InterruptedException {
        for (int i = 0; i < depth; i++) {
            Slot slot = new Slot(i, workload.blockSize(), 0x9E3779B97F4A7C15L * (i + 1));
            next(slot);
            start(slot);
        }
        if (failed.await(nanos(warmupSeconds), TimeUnit.NANOSECONDS)) {
            return stopAndThrow();
        }
        recorder.reset();
        ops.reset();
        bytes.reset();
        ThreadSampler threads = ThreadSampler.start();
        phase = 1;
        long t0 = System.nanoTime();
        boolean fail = failed.await(nanos(seconds), TimeUnit.NANOSECONDS);
        phase = 2;
        long t1 = System.nanoTime();
        threads.stop();
        long n = ops.sum();
        long b = bytes.sum();
        Histogram h = recorder.getIntervalHistogram();
        if (fail) {
            return stopAndThrow();
        }
        if (!drained.await(DRAIN_SECONDS, TimeUnit.SECONDS)) {
            throw new IOException(drained.getCount() + " reads did not complete within " + DRAIN_SECONDS
                    + " s after the window");
        }
        if (failure != null) {
            return stopAndThrow();
        }
        return new Measurement(n, b, (t1 - t0) / 1e9, h.getValueAtPercentile(50) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, checkedBytes.sum(), threads.peakThreads(),
                threads.peakIoWorkers());
    }

    private Measurement stopAndThrow() throws IOException, InterruptedException {
        phase = 2;
        drained.await(DRAIN_SECONDS, TimeUnit.SECONDS);
        Throwable t = failure;
        throw t instanceof IOException io ? io : new IOException("read failed: " + t, t);
    }

    /**
     * Ends one read of {@code slot}: checks it, counts it, and starts the slot's next read unless stopping.
     *
     * @param n     bytes read (ignored when {@code error} is set)
     * @param error the read's failure, or null
     */
    final void completed(Slot slot, int n, Throwable error) {
        long now = System.nanoTime();
        if (error == null && n != workload.blockSize()) {
            error = new IOException("short read: " + n + " of " + workload.blockSize() + " bytes at "
                    + slot.position + " (file of " + fileSize + " bytes changed?)");
        }
        if (error == null) {
            error = check(slot);
        }
        if (error != null) {
            fail(error);
        } else if (phase == 1) {
            ops.increment();
            bytes.add(n);
            recorder.recordValue(Math.min(now - slot.startNanos, TimeUnit.SECONDS.toNanos(60)));
        }
        if (phase == 2 || failure != null) {
            drained.countDown();
            return;
        }
        next(slot);
        start(slot);
    }

    private void start(Slot slot) {
        slot.buffer.clear();
        slot.startNanos = System.nanoTime();
        try {
            issue(slot);
        } catch (IOException | RuntimeException e) {
            fail(e);
            drained.countDown();
        }
    }

    private Throwable check(Slot slot) {
        for (int i = 0; i < workload.blockSize(); i += TestFile.BLOCK) {
            if (!TestFile.tagMatches(slot.buffer, i, slot.position + i)) {
                return new IOException("block at " + (slot.position + i) + " holds the wrong data: not a "
                        + "file-bench file, or the read returned another block");
            }
        }
        checkedBytes.add(workload.blockSize());
        return null;
    }

    private void next(Slot slot) {
        if (workload == Workload.RANDREAD) {
            long x = slot.rng; // xorshift64*
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            slot.rng = x;
            long blocks = fileSize / TestFile.BLOCK;
            slot.position = Long.remainderUnsigned(x * 0x2545F4914F6CDD1DL, blocks) * TestFile.BLOCK;
        } else {
            slot.position = Long.remainderUnsigned(sequential.getAndAdd(workload.blockSize()), fileSize);
        }
    }

    private void fail(Throwable t) {
        synchronized (this) {
            if (failure == null) {
                failure = t;
            }
        }
        failed.countDown();
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }

    /**
     * What one window measured, how many bytes had their block tags checked (warm-up included), and the peak of the
     * process's OS threads and io_uring kernel workers during the window ({@link ThreadSampler}).
     */
    record Measurement(long ops, long bytes, double seconds, double p50Us, double p99Us, long checkedBytes,
                       int peakThreads, int peakIoWorkers) {
    }
}
