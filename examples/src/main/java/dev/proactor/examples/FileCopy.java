package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;

/**
 * Copies a file with asynchronous positional reads and writes on the proactor, keeping up to {@code depth}
 * blocks in flight.
 *
 * <p>Each of the {@code depth} slots owns one buffer and one block-sized range of the file at a time: it reads
 * the range (repeating short reads, which positional reads may return), writes it to the same position of the
 * destination, then takes the next unassigned range. Reads of one slot overlap with writes of others, so the
 * source and the destination are busy at the same time. The source's size is taken when the copy starts; a
 * source that shrinks meanwhile fails the copy with {@link EOFException}.
 *
 * <p>All callbacks synchronize on the copier: reads (input of the source) and writes (output of the destination)
 * complete on different threads.
 */
public final class FileCopy implements AsynchHandler {

    /** What was copied, and which engine ran the files ({@code Demultiplexor.getFileEngineName()}). */
    public record Result(long bytes, double seconds, String fileEngine) {

        /** Throughput in MiB/s. */
        public double mibPerSecond() {
            return seconds > 0 ? bytes / 1048576.0 / seconds : 0;
        }
    }

    private final Path source;
    private final Path target;
    private final int block;
    private final int depth;
    private final CountDownLatch done = new CountDownLatch(1);

    private AsynchChannel in;
    private AsynchChannel out;
    private long size;
    private long nextRange;
    private long written;
    private int activeSlots;
    private Throwable failure;

    /** One buffer and the range of the file it is moving. */
    private static final class Slot {
        final ByteBuffer buffer;
        long position;

        Slot(int block) {
            buffer = ByteBuffer.allocateDirect(block);
        }
    }

    /**
     * A copy of {@code source} to {@code target} in {@code block}-byte reads and writes, {@code depth} blocks
     * in flight; nothing is opened before {@link #run()}.
     */
    public FileCopy(Path source, Path target, int block, int depth) {
        if (block < 1 || depth < 1) {
            throw new IllegalArgumentException("block and depth must be positive: " + block + ", " + depth);
        }
        this.source = source;
        this.target = target;
        this.block = block;
        this.depth = depth;
    }

    /**
     * Copies (creating or truncating the target), then checks that the target's size equals the source's.
     *
     * @throws IOException if an operation failed or the sizes differ at the end
     */
    public Result run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        String fileEngine;
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start()) {
            fileEngine = demux.getFileEngineName();
            in = AsynchChannel.openFile(demux, this, source, StandardOpenOption.READ);
            out = AsynchChannel.openFile(demux, this, target, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            synchronized (this) {
                size = in.size();
                for (int i = 0; i < depth && nextRange < size; i++) {
                    activeSlots++;
                    startRange(new Slot(block));
                }
                if (activeSlots == 0) {
                    done.countDown(); // empty source
                }
            }
            done.await();
            in.close();
            out.close();
            synchronized (this) {
                if (failure != null) {
                    throw new IOException("copy failed: " + failure, failure);
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long sourceSize = Files.size(source);
        long targetSize = Files.size(target);
        if (targetSize != size || sourceSize != size) {
            throw new IOException("size mismatch after the copy: source " + sourceSize + " bytes, target "
                    + targetSize + " bytes, copied " + written);
        }
        return new Result(written, seconds, fileEngine);
    }

    /** Gives the slot the next range and starts reading it. Lock held. */
    private void startRange(Slot slot) {
        slot.position = nextRange;
        int length = (int) Math.min(block, size - nextRange);
        nextRange += length;
        slot.buffer.clear().limit(length);
        in.read(slot.buffer, slot.position, slot);
    }

    @Override
    public synchronized void onReadCompleted(OpRead op) {
        Slot slot = (Slot) op.getAttachment();
        if (failure != null) {
            return;
        }
        if (!op.isSuccess()) {
            fail(op.getError());
            return;
        }
        if (op.isEndOfStream()) {
            fail(new EOFException(source + " ended at " + (slot.position + slot.buffer.position())
                    + " bytes while copying " + size));
            return;
        }
        if (slot.buffer.hasRemaining()) {
            in.read(slot.buffer, slot.position + slot.buffer.position(), slot); // short read: the rest
            return;
        }
        slot.buffer.flip();
        out.write(slot.buffer, slot.position, slot);
    }

    @Override
    public synchronized void onWriteCompleted(OpWrite op) {
        Slot slot = (Slot) op.getAttachment();
        if (failure != null) {
            return;
        }
        if (!op.isSuccess()) {
            fail(op.getError());
            return;
        }
        written += op.getBytesCompleted();
        if (nextRange < size) {
            startRange(slot);
        } else if (--activeSlots == 0) {
            done.countDown();
        }
    }

    private void fail(Throwable t) {
        failure = t;
        in.close();
        out.close();
        done.countDown();
    }
}
