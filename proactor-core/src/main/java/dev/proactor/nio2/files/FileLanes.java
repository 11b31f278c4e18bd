package dev.proactor.nio2.files;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.ChannelOp;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorOpenOption;
import dev.proactor.nio2.ProactorFiles;
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
 * next operation. An operation started by the thread that runs a lane's callback (a completion handler, or
 * {@code laneDone} itself) never goes to that lane: the lane dispatches its completions one after another, so the
 * new one would wait for the callback to return, and a handler that waits for it (a {@code Future.get()}) would
 * wait forever. It takes another lane, and when the callback's lane is the only one (a limit of 1), one lane is
 * opened beyond the limit for it.
 *
 * <p>Thread-safe. Opening a lane takes a {@link ReentrantLock}, never a monitor (a virtual thread waiting for it
 * parks and frees its carrier).
 */
final class FileLanes implements AsynchHandler {

    private static final Logger LOG = LoggerFactory.getLogger(FileLanes.class);

    private final Demultiplexor demultiplexor;
    private final FileChannel file;
    private final OpenOption[] laneOptions;
    /**
     * Lanes {@code [0, count)} are open; written under {@link #growLock}, published by {@link #count}. One slot more
     * than {@code proactor.fileLanes}: the lane opened beyond the limit for an operation that has no other.
     */
    private final Lane[] lanes;
    /** {@code proactor.fileLanes}. */
    private final int limit;
    private volatile int count;
    /** No lane is opened within the limit once this is set (the limit was met, or opening one failed). */
    private volatile boolean full;
    private volatile boolean closed;
    private final ArrayBlockingQueue<Lane> idle;
    private final ReentrantLock growLock = new ReentrantLock();
    private final AtomicInteger nextShared = new AtomicInteger();

    /**
     * Opens the first lane of {@code file}, which stays owned by the caller and was opened with {@code options}
     * (they are passed on, so opening a lane never probes the file: a probe would run inside the blocking section
     * of the calling channel, see {@link java.nio.channels.spi.AbstractInterruptibleChannel#begin()}), with at most
     * {@code settings.lanes()} lanes.
     *
     * @throws UnsupportedOperationException if the demultiplexor has no file engine, or none with direct I/O
     * @throws IOException                   if the file engine cannot use the file
     */
    FileLanes(Demultiplexor demultiplexor, FileChannel file, FileOptions options, FileSettings settings)
            throws IOException {
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
        this.limit = settings.lanes();
        this.lanes = new Lane[limit + 1];
        this.idle = new ArrayBlockingQueue<>(limit + 1);
        lanes[0] = new Lane(AsynchChannel.wrapFile(demultiplexor, this, file, laneOptions));
        count = 1;
        full = limit == 1;
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
        Lane lane = acquire(t);
        try {
            lane.channel.read(dst, position, t);
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
        Lane lane = acquire(t);
        try {
            lane.channel.write(src, position, t);
        } catch (RuntimeException | Error e) {
            release(t);
            throw e;
        }
    }

    /**
     * A lane for {@code t}: an idle one, else a new one within the limit, else a busy one (shared), never one whose
     * callback the calling thread is running; failing all that, one beyond the limit, and failing that too (no
     * descriptor left) the caller's own lane, behind its callback.
     */
    private Lane acquire(LaneTransfer t) {
        Thread me = Thread.currentThread();
        Lane lane = idle.poll();
        Lane mine = null;
        if (lane != null && lane.inCallbackOf(me)) {
            mine = lane;
            lane = idle.poll();
            if (lane != null && lane.inCallbackOf(me)) { // callbacks nested on one thread: rare, no third try
                idle.offer(lane);
                lane = null;
            }
        }
        if (lane == null && !full) {
            lane = grow(limit);
        }
        boolean exclusive = lane != null;
        if (lane == null) {
            lane = shared(me);
        }
        if (lane == null) {
            lane = grow(lanes.length); // every open lane is running this thread's callback
            exclusive = lane != null;
        }
        if (lane == null) {
            LOG.debug("no lane but the caller's own for an operation on {}: it waits for the callback", file);
            lane = mine != null ? mine : lanes[0];
            exclusive = lane == mine;
            mine = null;
        }
        if (mine != null) {
            idle.offer(mine);
        }
        t.exclusive = exclusive;
        t.lane = lane;
        return lane;
    }

    /** A busy lane, round-robin, that is not running a callback of {@code me}; null if there is none. */
    private Lane shared(Thread me) {
        Lane[] all = lanes;
        int n = count;
        int first = Math.floorMod(nextShared.getAndIncrement(), n);
        for (int i = 0; i < n; i++) {
            Lane lane = all[(first + i) % n];
            if (!lane.inCallbackOf(me)) {
                return lane;
            }
        }
        return null;
    }

    /**
     * A new lane if fewer than {@code max} are open; null when there are {@code max}, the file is closed, or the
     * engine refuses one more (then no lane is opened within the limit any more).
     */
    private Lane grow(int max) {
        growLock.lock();
        try {
            int n = count;
            if (closed || n >= max || (full && max == limit)) {
                if (max == limit) {
                    full = true;
                }
                return null;
            }
            Lane lane;
            try {
                lane = new Lane(AsynchChannel.wrapFile(demultiplexor, this, file, laneOptions));
            } catch (IOException | RuntimeException e) {
                // Out of descriptors, the demultiplexor closed, ...: the lanes there are carry on.
                LOG.debug("no lane {} for {}; queueing on the {} open", n + 1, file, n, e);
                full = true;
                return null;
            }
            lanes[n] = lane;
            count = n + 1;
            if (n + 1 >= limit) {
                full = true;
            }
            return lane;
        } finally {
            growLock.unlock();
        }
    }

    private void release(LaneTransfer t) {
        Lane lane = t.lane;
        t.lane = null;
        if (t.exclusive) {
            idle.offer(lane);
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
        completed(op, true);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        completed(op, false);
    }

    private void completed(ChannelOp op, boolean read) {
        LaneTransfer t = (LaneTransfer) op.getAttachment();
        long bytes = op.getBytesCompleted();
        Throwable error = op.getError();
        Lane lane = t.lane;
        Thread me = Thread.currentThread();
        // Marked before the lane is idle again: this thread must never take it while the callback runs.
        Thread before = lane.enter(read, me);
        release(t);
        try {
            t.laneDone(bytes, error);
        } catch (RuntimeException | Error e) {
            // A defect of ours (laneDone must not throw): the lane stays open for the operations of others.
            LOG.error("completion of a file operation on {} failed", file, e);
        } finally {
            lane.leave(read, before);
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
            lanes[i].channel.close();
        }
    }

    @Override
    public String toString() {
        return "lanes[" + count + " of " + limit + ", " + file + "]";
    }

    /**
     * One lane: its channel, and the threads running its read and its write callback (each direction dispatches
     * one callback at a time; the two may run at once).
     */
    static final class Lane {

        final AsynchChannel channel;
        private volatile Thread readCallback;
        private volatile Thread writeCallback;

        Lane(AsynchChannel channel) {
            this.channel = channel;
        }

        /** Whether {@code thread} is running a callback of this lane. */
        boolean inCallbackOf(Thread thread) {
            return readCallback == thread || writeCallback == thread;
        }

        /** Marks {@code thread} as running the callback of one direction; returns what {@link #leave} restores. */
        Thread enter(boolean read, Thread thread) {
            Thread before;
            if (read) {
                before = readCallback;
                readCallback = thread;
            } else {
                before = writeCallback;
                writeCallback = thread;
            }
            return before;
        }

        /** Ends what {@link #enter} began. */
        void leave(boolean read, Thread before) {
            if (read) {
                readCallback = before;
            } else {
                writeCallback = before;
            }
        }
    }
}
