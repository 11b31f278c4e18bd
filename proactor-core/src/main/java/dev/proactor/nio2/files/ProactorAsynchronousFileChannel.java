package dev.proactor.nio2.files;

import dev.proactor.Demultiplexor;
import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link AsynchronousFileChannel} whose reads and writes run on a demultiplexor's file engine (see
 * {@link ProactorFiles#openAsynchronous(Demultiplexor, java.nio.file.Path, java.nio.file.OpenOption...)}): each
 * operation takes a {@link FileLanes lane} of its own, so many are in the engine at once, and its outcome is
 * delivered by {@link AsyncTransfer} (handlers run on the demultiplexor's pool threads). {@link #size},
 * {@link #truncate}, {@link #force}, {@link #tryLock} and the waiting of {@link #lock} are done by the JDK's
 * {@link FileChannel} on the same open file ({@link FileLocking}).
 *
 * <p>The JDK's contract: argument and access errors are thrown by the starting call ({@link IllegalArgumentException},
 * {@link NonReadableChannelException}, {@link NonWritableChannelException}); an operation on a closed channel
 * fails with {@link ClosedChannelException} through its handler or future; {@link #close()} makes operations still
 * waiting for the engine fail with {@link java.nio.channels.AsynchronousCloseException} (one the engine already
 * finished keeps its result). A write completes when every byte was written. On a file without a position (a pipe,
 * a FIFO: see {@link FilePositions}) every read and write fails with the JDK's {@link java.io.IOException}
 * ("Illegal seek"), as the JDK's {@code pread(2)} and {@code pwrite(2)} do.
 *
 * <p>Thread-safe.
 */
final class ProactorAsynchronousFileChannel extends AsynchronousFileChannel {

    /** Transfer objects kept for reuse: more than this many operations in flight allocate the extra ones. */
    private static final int POOLED = 256;

    private final FileChannel file;
    private final FileOptions options;
    /** Whether the file has no position (see {@link FilePositions}): every transfer fails. */
    private final boolean stream;
    private final FileLanes lanes;
    private final FileLocking locking;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ArrayBlockingQueue<AsyncTransfer> pool = new ArrayBlockingQueue<>(POOLED);

    /**
     * A channel on {@code file}, opened with {@code options}, whose lanes (as many as {@code settings} allows) run
     * on {@code demultiplexor}; closing the channel closes {@code file}.
     *
     * @throws UnsupportedOperationException if the demultiplexor has no file engine, or none with direct I/O
     * @throws IOException                   if the file engine cannot use the file
     */
    ProactorAsynchronousFileChannel(Demultiplexor demultiplexor, FileChannel file, FileOptions options,
                                    FileSettings settings) throws IOException {
        this.file = file;
        this.options = options;
        this.stream = FilePositions.isStream(file);
        this.lanes = new FileLanes(demultiplexor, file, options, settings);
        this.locking = new FileLocking(this, file);
    }

    FileLanes lanes() {
        return lanes;
    }

    /** Gives a transfer back after its operation ended (its completing thread). */
    void recycle(AsyncTransfer t) {
        pool.offer(t);
    }

    private AsyncTransfer transfer() {
        AsyncTransfer t = pool.poll();
        return t != null ? t : new AsyncTransfer(this);
    }

    // ---------------------------------------------------------------- reads and writes on the engine

    @Override
    public <A> void read(ByteBuffer dst, long position, A attachment,
                         CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        start(true, dst, position, attachment, handler, null);
    }

    @Override
    public Future<Integer> read(ByteBuffer dst, long position) {
        FileFuture<Integer> f = new FileFuture<>(this);
        start(true, dst, position, null, null, f);
        return f;
    }

    @Override
    public <A> void write(ByteBuffer src, long position, A attachment,
                          CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        start(false, src, position, attachment, handler, null);
    }

    @Override
    public Future<Integer> write(ByteBuffer src, long position) {
        FileFuture<Integer> f = new FileFuture<>(this);
        start(false, src, position, null, null, f);
        return f;
    }

    /** The JDK's checks, in its order, then the operation (or its immediate outcome). */
    private void start(boolean read, ByteBuffer buffer, long position, Object attachment,
                       CompletionHandler<Integer, ?> handler, FileFuture<Integer> future) {
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        if (read && !options.readable) {
            throw new NonReadableChannelException();
        }
        if (!read && !options.writable) {
            throw new NonWritableChannelException();
        }
        if (read && buffer.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
        Throwable error = null;
        if (!isOpen()) {
            error = new ClosedChannelException();
        } else if (stream && buffer.hasRemaining()) {
            error = FilePositions.illegalSeek();
        }
        boolean now = error != null || !buffer.hasRemaining();
        transfer().start(read, buffer, position, attachment, handler, future, now, error);
    }

    // ---------------------------------------------------------------- done by the JDK's channel

    @Override
    public long size() throws IOException {
        ensureOpen();
        return file.size();
    }

    @Override
    public AsynchronousFileChannel truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size");
        }
        if (!options.writable) {
            throw new NonWritableChannelException();
        }
        ensureOpen();
        file.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        file.force(metaData);
    }

    @Override
    public <A> void lock(long position, long size, boolean shared, A attachment,
                         CompletionHandler<FileLock, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        checkLockAccess(shared);
        locking.lock(position, size, shared, attachment, handler, null);
    }

    @Override
    public Future<FileLock> lock(long position, long size, boolean shared) {
        checkLockAccess(shared);
        FileFuture<FileLock> f = new FileFuture<>(this);
        locking.lock(position, size, shared, null, null, f);
        return f;
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        checkLockAccess(shared);
        ensureOpen();
        return locking.tryLock(position, size, shared);
    }

    private void checkLockAccess(boolean shared) {
        if (shared && !options.readable) {
            throw new NonReadableChannelException();
        }
        if (!shared && !options.writable) {
            throw new NonWritableChannelException();
        }
    }

    // ---------------------------------------------------------------- close

    @Override
    public boolean isOpen() {
        return !closed.get();
    }

    /**
     * Closes the lanes (operations waiting in them fail with
     * {@link java.nio.channels.AsynchronousCloseException}) and the JDK channel (its locks are released, a pending
     * {@link #lock} fails with that exception too). Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            lanes.close();
        } finally {
            file.close();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        return "ProactorAsynchronousFileChannel[" + file + " on " + lanes.demultiplexor() + "]";
    }
}
