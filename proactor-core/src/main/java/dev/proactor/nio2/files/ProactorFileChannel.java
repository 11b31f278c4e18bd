package dev.proactor.nio2.files;

import dev.proactor.Demultiplexor;
import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link FileChannel} whose reads and writes run on a demultiplexor's file engine while the calling thread parks
 * (see {@link ProactorFiles#open(Demultiplexor, Path, java.nio.file.OpenOption...)}): positional and relative reads
 * and writes, scattering and gathering, through {@link FileLanes} and {@link BlockingIo}. Everything without an
 * asynchronous form ({@link #size}, {@link #truncate}, {@link #force}, {@link #map}, {@link #transferTo},
 * {@link #transferFrom}, {@link #lock}, {@link #tryLock}) is done by the JDK's {@link FileChannel} on the same open
 * file, which also decided the open options.
 *
 * <p>FileChannel's contract: relative operations and {@link #position()} serialize on the position (a
 * {@link ReentrantLock}, so a waiting virtual thread parks); positional ones do not. A thread interrupted before or
 * while it blocks closes the channel and gets {@link ClosedByInterruptException} with its interrupt status set;
 * other threads blocked on the channel get {@link java.nio.channels.AsynchronousCloseException}. A blocked thread
 * always waits until its operation completed in the engine (a closed channel completes it promptly), so the buffer
 * is never written after the call returned. In append mode writes go to the end of the file (the kernel appends
 * every write on the shared open file) and {@link #position()} is the size; a heap buffer of more than one bounce
 * chunk is appended chunk by chunk, so appends of other writers may come between its chunks. Locks are the JDK's,
 * presented as locks of this channel.
 *
 * <p>A file without a position (a pipe, a FIFO, a terminal: see {@link FilePositions}) is read and written where its
 * stream is, as the JDK's channel does with {@code read(2)} and {@code write(2)}): a read returns what one engine
 * read brings (it never waits for more once it has bytes), and what needs a position ({@link #position()},
 * positional reads and writes) fails with the JDK's {@link IOException} ("Illegal seek").
 *
 * <p>Thread-safe.
 */
final class ProactorFileChannel extends FileChannel {

    private final FileChannel file;
    private final FileLanes lanes;
    private final FileOptions options;
    /** Whether the file has no position (see {@link FilePositions}). */
    private final boolean stream;
    private final ReentrantLock positionLock = new ReentrantLock();
    /** The position of relative reads and writes; guarded by positionLock. */
    private long position;

    /**
     * A channel on {@code file}, opened with {@code options}, whose lanes (as many as {@code settings} allows) run
     * on {@code demultiplexor}; closing the channel closes {@code file}.
     *
     * @throws UnsupportedOperationException if the demultiplexor has no file engine, or none with direct I/O
     * @throws IOException                   if the file engine cannot use the file
     */
    ProactorFileChannel(Demultiplexor demultiplexor, FileChannel file, FileOptions options, FileSettings settings)
            throws IOException {
        this.file = file;
        this.options = options;
        this.stream = FilePositions.isStream(file);
        this.lanes = new FileLanes(demultiplexor, file, options, settings);
    }

    /** The lanes (tests). */
    FileLanes lanes() {
        return lanes;
    }

    // ---------------------------------------------------------------- reads and writes on the engine

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Objects.requireNonNull(dst, "dst");
        ensureOpen();
        checkReadable();
        positionLock.lock();
        try {
            checkNotReadOnly(dst);
            if (!dst.hasRemaining()) {
                return 0;
            }
            int n = 0;
            try {
                begin();
                if (isOpen()) {
                    n = BlockingIo.read(lanes, dst, position, stream);
                    if (n > 0) {
                        position += n;
                    }
                }
            } finally {
                end(n > 0);
            }
            return n;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        ensureOpen();
        checkReadable();
        positionLock.lock();
        try {
            for (int i = offset; i < offset + length; i++) {
                checkNotReadOnly(Objects.requireNonNull(dsts[i], "dsts[" + i + "]"));
            }
            long total = 0;
            boolean endOfFile = false;
            try {
                begin();
                if (stream) {
                    // One read for all the buffers, as the JDK's readv: a second would wait for more bytes.
                    if (isOpen()) {
                        long n = BlockingIo.scatter(lanes, dsts, offset, length);
                        endOfFile = n < 0;
                        total = Math.max(n, 0);
                    }
                } else {
                    for (int i = offset; i < offset + length && isOpen(); i++) {
                        ByteBuffer dst = dsts[i];
                        if (!dst.hasRemaining()) {
                            continue;
                        }
                        int n;
                        try {
                            n = BlockingIo.read(lanes, dst, position + total, false);
                        } catch (IOException | RuntimeException e) {
                            if (total > 0) {
                                break; // report what the buffers before this one read, as the JDK's readv would
                            }
                            throw e;
                        }
                        if (n < 0) {
                            endOfFile = total == 0;
                            break;
                        }
                        total += n;
                        if (dst.hasRemaining() || Thread.currentThread().isInterrupted()) {
                            break; // a short read: the end of the file is near
                        }
                    }
                    position += total;
                }
            } finally {
                end(total > 0);
            }
            return endOfFile ? -1 : total;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        Objects.requireNonNull(src, "src");
        ensureOpen();
        checkWritable();
        positionLock.lock();
        try {
            // The JDK channel's size() is a blocking section of its own: never inside this channel's (it would
            // replace this channel as the one an interrupt closes).
            long at = options.append ? delegated(file::size) : position;
            int n = 0;
            try {
                begin();
                if (isOpen() && src.hasRemaining()) {
                    n = BlockingIo.write(lanes, src, at);
                    if (!options.append) {
                        position += n;
                    }
                }
            } finally {
                end(n > 0);
            }
            return n;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        ensureOpen();
        checkWritable();
        positionLock.lock();
        try {
            for (int i = offset; i < offset + length; i++) {
                Objects.requireNonNull(srcs[i], "srcs[" + i + "]"); // before any byte is written, as the JDK's
            }
            long at = options.append ? delegated(file::size) : position;
            long total = 0;
            try {
                begin();
                for (int i = offset; i < offset + length && isOpen(); i++) {
                    ByteBuffer src = srcs[i]; // checked for null above
                    if (!src.hasRemaining()) {
                        continue;
                    }
                    int n;
                    try {
                        n = BlockingIo.write(lanes, src, at + total);
                    } catch (IOException | RuntimeException e) {
                        if (total > 0) {
                            break; // report what the buffers before this one wrote, as the JDK's one writev would
                        }
                        throw e;
                    }
                    total += n;
                    if (src.hasRemaining() || Thread.currentThread().isInterrupted()) {
                        break; // written in part before an error, which the next call meets again
                    }
                }
                if (!options.append) {
                    position += total;
                }
            } finally {
                end(total > 0);
            }
            return total;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        Objects.requireNonNull(dst, "dst");
        checkPosition(position);
        ensureOpen();
        checkReadable();
        checkNotReadOnly(dst);
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n = 0;
        try {
            begin();
            if (isOpen()) {
                if (stream) {
                    throw FilePositions.illegalSeek();
                }
                n = BlockingIo.read(lanes, dst, position, false);
            }
        } finally {
            end(n > 0);
        }
        return n;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        Objects.requireNonNull(src, "src");
        checkPosition(position);
        ensureOpen();
        checkWritable();
        if (!src.hasRemaining()) {
            return 0;
        }
        int n = 0;
        try {
            begin();
            if (isOpen()) {
                if (stream) {
                    throw FilePositions.illegalSeek();
                }
                n = BlockingIo.write(lanes, src, position);
            }
        } finally {
            end(n > 0);
        }
        return n;
    }

    // ---------------------------------------------------------------- position

    @Override
    public long position() throws IOException {
        ensureOpen();
        if (stream) {
            return delegated(file::position); // fails as the JDK's does
        }
        positionLock.lock();
        try {
            return options.append ? delegated(file::size) : position;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        if (newPosition < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        ensureOpen();
        if (stream) {
            delegated(() -> file.position(newPosition)); // fails as the JDK's does
        }
        positionLock.lock();
        try {
            position = newPosition;
            return this;
        } finally {
            positionLock.unlock();
        }
    }

    // ---------------------------------------------------------------- done by the JDK's channel

    @Override
    public long size() throws IOException {
        ensureOpen();
        return delegated(file::size);
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size");
        }
        ensureOpen();
        checkWritable();
        positionLock.lock();
        try {
            delegated(() -> file.truncate(size));
            if (position > size) {
                position = size;
            }
            return this;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        delegated(() -> {
            file.force(metaData);
            return null;
        });
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        return delegated(() -> file.transferTo(position, count, target));
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        ensureOpen();
        return delegated(() -> file.transferFrom(src, position, count));
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        ensureOpen();
        return delegated(() -> file.map(mode, position, size));
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock lock = delegated(() -> file.lock(position, size, shared));
        return new ProactorFileLock(this, lock);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock lock = delegated(() -> file.tryLock(position, size, shared));
        return lock == null ? null : new ProactorFileLock(this, lock);
    }

    /** A call of the JDK channel. */
    private interface JdkCall<T> {
        T run() throws IOException;
    }

    /**
     * Runs a call of the JDK channel. An interrupt during it closes that channel ({@link ClosedByInterruptException}
     * from the JDK), and with it this one, as the contract says.
     */
    private <T> T delegated(JdkCall<T> call) throws IOException {
        try {
            return call.run();
        } catch (ClosedByInterruptException e) {
            close();
            throw e;
        }
    }

    // ---------------------------------------------------------------- close and checks

    /**
     * Closes the lanes (a thread blocked in an operation wakes once its operation completed) and the JDK channel
     * (its locks are released).
     */
    @Override
    protected void implCloseChannel() throws IOException {
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

    private void checkReadable() {
        if (!options.readable) {
            throw new NonReadableChannelException();
        }
    }

    private void checkWritable() {
        if (!options.writable) {
            throw new NonWritableChannelException();
        }
    }

    private static void checkNotReadOnly(ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
    }

    private static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
    }

    @Override
    public String toString() {
        return "ProactorFileChannel[" + file + " on " + lanes.demultiplexor() + "]";
    }
}
