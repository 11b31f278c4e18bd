package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.io.RandomAccessFile;
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
 * source and the destination are busy at the same time.
 *
 * <p><b>End of file.</b> The copy reads until a read reports end-of-file, not up to the size the source
 * reported at the start: pseudo-files such as {@code /proc/self/status} report size 0 and still have content.
 * A source that changes while it is copied gives an undefined target.
 *
 * <p><b>Holes.</b> A block that reads as all zeros is not written; the target gets its final length at the end,
 * so such blocks become holes (as {@code cp --sparse=always} does). A sparse source stays sparse, and a
 * target on a file system without holes reads the same zeros. Finding holes with {@code SEEK_DATA} would skip
 * reading them too, but needs a file-engine operation the proactor does not offer.
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
    private final ByteBuffer zeros;

    private AsynchChannel in;
    private AsynchChannel out;
    private long end = Long.MAX_VALUE; // where the source ended; unknown until a read reports end-of-file
    private long nextRange;
    private long copied; // bytes of the source handled: written, or skipped as a hole
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
        this.zeros = ByteBuffer.allocateDirect(block).asReadOnlyBuffer();
    }

    /**
     * Copies (creating or truncating the target) up to the source's end-of-file, then gives the target the
     * source's length (a trailing hole) and checks it.
     *
     * @throws IOException if an operation failed (a {@link java.nio.file.FileSystemException} names the file and
     *                     the reason) or the target's size is not what was copied
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
                for (int i = 0; i < depth; i++) {
                    activeSlots++;
                    startRange(new Slot(block));
                }
            }
            done.await();
            in.close();
            out.close();
            synchronized (this) {
                if (failure instanceof IOException io) {
                    throw io;
                }
                if (failure != null) {
                    throw new IOException("copy failed: " + failure, failure);
                }
            }
        }
        try (RandomAccessFile f = new RandomAccessFile(target.toFile(), "rw")) {
            if (f.length() < copied) {
                f.setLength(copied); // blocks of zeros at the end were skipped: a trailing hole
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long targetSize = Files.size(target);
        if (targetSize != copied) {
            throw new IOException("size mismatch after the copy: target " + targetSize + " bytes, copied "
                    + copied);
        }
        return new Result(copied, seconds, fileEngine);
    }

    /** Gives the slot the next range and starts reading it, or retires the slot past the end. Lock held. */
    private void startRange(Slot slot) {
        if (nextRange >= end) {
            if (--activeSlots == 0) {
                done.countDown();
            }
            return;
        }
        slot.position = nextRange;
        nextRange += block;
        slot.buffer.clear();
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
            end = Math.min(end, slot.position + slot.buffer.position());
        } else if (slot.buffer.hasRemaining()) {
            in.read(slot.buffer, slot.position + slot.buffer.position(), slot); // short read: the rest
            return;
        }
        slot.buffer.flip();
        int n = slot.buffer.remaining();
        if (n == 0) {
            startRange(slot); // the range lies past the end: retires the slot
        } else if (slot.buffer.mismatch(zeros.duplicate().limit(n)) == -1) {
            copied += n; // all zeros: left as a hole
            startRange(slot);
        } else {
            out.write(slot.buffer, slot.position, slot);
        }
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
        copied += op.getBytesCompleted();
        startRange(slot);
    }

    private void fail(Throwable t) {
        failure = t;
        in.close();
        out.close();
        done.countDown();
    }
}
