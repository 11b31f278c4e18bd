package dev.proactor.nio2;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.ChannelOp;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lanes of one {@link ProactorFiles} channel: {@link AsynchChannel}s wrapping its JDK {@link FileChannel}
 * ({@link AsynchChannel#wrapFile}), so that reads and writes of the same file reach the file engine together. One
 * {@code AsynchChannel} runs the operations of a direction one after another; each operation here takes a lane of
 * its own instead: an idle one, else a new one while there are fewer than {@code proactor.fileLanes}, else (every
 * lane busy, or no new one could be opened) it queues on a busy lane, taken round-robin. A lane costs a duplicate of
 * the descriptor on the native engines and nothing on the thread-pool file engine; the first is opened at once, so
 * an engine that cannot run the file (no direct I/O, no file engine) fails the open.
 *
 * <p>Completions come to {@link #onReadCompleted}/{@link #onWriteCompleted} on the demultiplexor's dispatching
 * threads; the lane is released before the operation's {@link LaneTransfer#laneDone} runs, so that may start the
 * next operation.
 *
 * <p>Thread-safe. Opening a lane takes a {@link ReentrantLock}, never a monitor (a virtual thread waiting for it
 * parks and frees its carrier).
 */
final class FileLanes implements AsynchHandler {

    private static final Logger LOG = LoggerFactory.getLogger(FileLanes.class);

    private final Demultiplexor demultiplexor;
    private final FileChannel file;
    private final OpenOption[] laneOptions;
    /** Lanes {@code [0, count)} are open; written under {@link #growLock}, published by {@link #count}. */
    private final AsynchChannel[] lanes;
    private volatile int count;
    /** No lane is opened once this is set (the limit was met, or opening one failed). */
    private volatile boolean full;
    private volatile boolean closed;
    private final ArrayBlockingQueue<AsynchChannel> idle;
    private final ReentrantLock growLock = new ReentrantLock();
    private final AtomicInteger nextShared = new AtomicInteger();

    /**
     * Opens the first lane of {@code file}, which stays owned by the caller and was opened with {@code options}
     * (they are passed on, so opening a lane never probes the file: a probe would run inside the blocking section
     * of the calling channel, see {@link java.nio.channels.spi.AbstractInterruptibleChannel#begin()}).
     *
     * @throws UnsupportedOperationException if the demultiplexor has no file engine, or none with direct I/O
     * @throws IOException                   if the file engine cannot use the file
     */
    FileLanes(Demultiplexor demultiplexor, FileChannel file, FileOptions options) throws IOException {
        this.demultiplexor = demultiplexor;
        this.file = file;
        List<OpenOption> o = new ArrayList<>();
        if (options.readable) {
            o.add(StandardOpenOption.READ);
        }
        if (options.writable) {
            o.add(StandardOpenOption.WRITE);
        }
        if (options.direct) {
            o.add(ProactorOpenOption.DIRECT);
        }
        this.laneOptions = o.toArray(new OpenOption[0]);
        int max = demultiplexor.getConfig().fileLanes();
        this.lanes = new AsynchChannel[max];
        this.idle = new ArrayBlockingQueue<>(max);
        lanes[0] = AsynchChannel.wrapFile(demultiplexor, this, file, laneOptions);
        count = 1;
        full = max == 1;
        idle.add(lanes[0]);
    }

    /** The demultiplexor whose file engine runs the lanes. */
    Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    /**
     * Starts a read of {@code dst} at file {@code position} on a lane; {@code t.laneDone} reports it.
     *
     * @throws IllegalArgumentException as {@link AsynchChannel#read(ByteBuffer, long, Object)} (nothing started)
     */
    void read(LaneTransfer t, ByteBuffer dst, long position) {
        AsynchChannel lane = acquire(t);
        try {
            lane.read(dst, position, t);
        } catch (RuntimeException | Error e) {
            release(t);
            throw e;
        }
    }

    /**
     * Starts a write of every byte remaining in {@code src} at file {@code position} on a lane.
     *
     * @throws IllegalArgumentException as {@link AsynchChannel#write(ByteBuffer, long, Object)} (nothing started)
     */
    void write(LaneTransfer t, ByteBuffer src, long position) {
        AsynchChannel lane = acquire(t);
        try {
            lane.write(src, position, t);
        } catch (RuntimeException | Error e) {
            release(t);
            throw e;
        }
    }

    private AsynchChannel acquire(LaneTransfer t) {
        AsynchChannel lane = idle.poll();
        if (lane == null && !full) {
            lane = grow();
        }
        t.exclusive = lane != null;
        if (lane == null) {
            AsynchChannel[] all = lanes;
            lane = all[Math.floorMod(nextShared.getAndIncrement(), count)];
        }
        t.lane = lane;
        return lane;
    }

    /** A new lane, or null when the limit is met, the file is closed, or the engine refuses one more. */
    private AsynchChannel grow() {
        growLock.lock();
        try {
            int n = count;
            if (full || closed || n == lanes.length) {
                full = true;
                return null;
            }
            AsynchChannel lane;
            try {
                lane = AsynchChannel.wrapFile(demultiplexor, this, file, laneOptions);
            } catch (IOException | RuntimeException e) {
                // Out of descriptors, the demultiplexor closed, ...: the lanes there are carry on.
                LOG.debug("no lane {} for {}; queueing on the {} open", n + 1, file, n, e);
                full = true;
                return null;
            }
            lanes[n] = lane;
            count = n + 1;
            return lane;
        } finally {
            growLock.unlock();
        }
    }

    private void release(LaneTransfer t) {
        AsynchChannel lane = t.lane;
        t.lane = null;
        if (t.exclusive) {
            idle.offer(lane);
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
        completed(op);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        completed(op);
    }

    private void completed(ChannelOp op) {
        LaneTransfer t = (LaneTransfer) op.getAttachment();
        long bytes = op.getBytesCompleted();
        Throwable error = op.getError();
        release(t);
        try {
            t.laneDone(bytes, error);
        } catch (RuntimeException | Error e) {
            // A defect of ours (laneDone must not throw): the lane stays open for the operations of others.
            LOG.error("completion of a file operation on {} failed", file, e);
        }
    }

    /** Lanes open now (tests and diagnostics). */
    int laneCount() {
        return count;
    }

    /**
     * Closes every lane: operations waiting in a lane complete with
     * {@link java.nio.channels.AsynchronousCloseException}, those in the engine with their own result or that
     * exception; later ones with {@link java.nio.channels.ClosedChannelException}. The file itself is the
     * caller's to close. Idempotent.
     */
    void close() {
        int n;
        growLock.lock();
        try {
            closed = true;
            full = true;
            n = count;
        } finally {
            growLock.unlock();
        }
        for (int i = 0; i < n; i++) {
            lanes[i].close();
        }
    }

    @Override
    public String toString() {
        return "lanes[" + count + " of " + lanes.length + ", " + file + "]";
    }
}
