package dev.proactor.bench.jmh;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One 4 KiB read of {@link AsynchronousFileChannel} with a {@link CompletionHandler}, at a random 4 KiB-aligned
 * position of a 64 MiB file in the page cache, the benchmark thread waiting for the handler: the JDK's channel
 * (default thread pool) against ours ({@link ProactorFiles#openAsynchronous}) on each file engine. The buffer is
 * direct, the handler and attachment are reused, and the wait is a park/unpark, so {@code -prof gc} shows what the
 * channel itself allocates per read (the target for ours: 0 B in steady state).
 *
 * <pre>{@code java -jar proactor-bench/target/benchmarks.jar FileReadHandlerBenchmark -prof gc}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class FileReadHandlerBenchmark implements CompletionHandler<Integer, Object> {

    private static final int BLOCK = 4096;
    private static final int BLOCKS = 16384; // 64 MiB

    /** {@code jdk}, or ours on a file engine: {@code threadpool}, {@code linux-aio}, {@code io_uring}. */
    @Param({"jdk", "threadpool", "linux-aio", "io_uring"})
    public String channel;

    private Path file;
    private Demultiplexor demux;
    private AsynchronousFileChannel ch;
    private ByteBuffer buffer;
    private long rng = 0x9E3779B97F4A7C15L;
    private volatile Thread waiter;
    private volatile boolean done;
    private volatile Throwable failure;

    /**
     * Writes the file (and so caches it) and opens the channel.
     *
     * @throws IOException when the file cannot be written or the engine is unavailable
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        file = Files.createTempFile("proactor-file-jmh", ".dat");
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < block.capacity(); i++) {
                block.put(i, (byte) (i * 31));
            }
            for (int i = 0; i < BLOCKS * BLOCK / block.capacity(); i++) {
                block.clear();
                while (block.hasRemaining()) {
                    out.write(block);
                }
            }
        }
        if (channel.equals("jdk")) {
            ch = AsynchronousFileChannel.open(file, StandardOpenOption.READ);
        } else {
            String engine = channel.equals("threadpool") ? "nio" : channel;
            demux = Demultiplexor.open(ProactorConfig.builder().engine(engine).strict(true).build()).start();
            ch = ProactorFiles.openAsynchronous(demux, file, StandardOpenOption.READ);
        }
        buffer = ByteBuffer.allocateDirect(BLOCK);
    }

    /**
     * Closes the channel and the demultiplexor, deletes the file.
     *
     * @throws IOException when closing fails
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (ch != null) {
            ch.close();
        }
        if (demux != null) {
            demux.close();
        }
        Files.deleteIfExists(file);
    }

    /**
     * Reads one block and waits for its handler.
     *
     * @return the block's first byte (so the read is not dead code)
     */
    @Benchmark
    public byte readWithHandler() throws IOException {
        long x = rng;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        rng = x;
        long position = Long.remainderUnsigned(x * 0x2545F4914F6CDD1DL, BLOCKS) * BLOCK;
        buffer.clear();
        done = false;
        waiter = Thread.currentThread();
        ch.read(buffer, position, null, this);
        while (!done) {
            LockSupport.park(this);
        }
        Throwable f = failure;
        if (f != null) {
            throw new IOException("read failed", f);
        }
        return buffer.get(0);
    }

    @Override
    public void completed(Integer n, Object attachment) {
        Thread w = waiter;
        done = true;
        LockSupport.unpark(w);
    }

    @Override
    public void failed(Throwable e, Object attachment) {
        failure = e;
        completed(0, attachment);
    }
}
