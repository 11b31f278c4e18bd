package dev.proactor.jni.aio;

import dev.proactor.ProactorOpenOption;
import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One file of the Linux AIO engine. The JDK opens it ({@link FileChannel#open}, so errors are the usual
 * {@link java.nio.file.NoSuchFileException} etc.), or the user did and wrapped it, and answers {@link #size()};
 * the engine submits its iocbs on its own close-on-exec duplicate of the descriptor ({@link #fd}), so a number the
 * JDK frees can never be used for another file.
 *
 * <p>Kind ({@link FileNative#kindOf}): only a regular file or a block device ({@link #disk}) goes to the kernel's
 * AIO, whose {@code io_submit} runs any other file's transfer to its end on the submitting thread (a pipe read
 * waits there for a writer); the others run on the context's workers ({@link AioBlockingFiles}) with the JDK
 * channel ({@link #jdk()}).
 *
 * <p>Lifetime: an iocb is submitted only between {@link #beginSubmit()} and {@link #endSubmit()}, which the
 * first allows only while the channel is open; {@link #close()} marks it closed, and the descriptor is closed once
 * no submission is in progress (by the closer, or by the last submitter), so a number the kernel may give another
 * file is never submitted. The kernel holds its own reference to the file for every request already submitted, so
 * those run to the end and complete with their own results. No lock is held across {@code io_submit}.
 *
 * <p>Thread-safe.
 */
final class AioFileChannel implements EngineChannel {

    private static final Logger LOG = LoggerFactory.getLogger(AioFileChannel.class);

    final int fd;
    final boolean readable;
    final boolean writable;
    /** Non-null when opened with {@link ProactorOpenOption#DIRECT}. */
    final DirectIoAlignment alignment;
    /**
     * A regular file or a block device: its transfers go to the kernel's AIO, until {@code io_submit} refuses one
     * with {@code EINVAL} ({@link #aioRefused()}: a /proc or sysfs file, which has no asynchronous read).
     */
    private volatile boolean disk;
    /** A file without a position (a pipe, a FIFO): transferred where its stream is, not at a position. */
    final boolean stream;
    private final FileChannel file;
    /** Whether {@link #close()} closes {@link #file} (false for a file the user wrapped and still owns). */
    private final boolean owned;
    private final String description;
    /** Guarded by this. */
    private boolean closed;
    /** Submissions in progress on {@link #fd}; guarded by this. */
    private int submitting;
    /** Whether {@link #fd} is closed; guarded by this. */
    private boolean fdClosed;

    private AioFileChannel(int fd, FileChannel file, boolean owned, boolean readable, boolean writable,
                           DirectIoAlignment alignment, int kind, String description) {
        this.fd = fd;
        this.file = file;
        this.owned = owned;
        this.readable = readable;
        this.writable = writable;
        this.alignment = alignment;
        this.disk = kind == FileNative.KIND_DISK;
        this.stream = kind == FileNative.KIND_STREAM;
        this.description = description;
    }

    /**
     * Opens {@code path}; {@link ProactorOpenOption#DIRECT} sets {@code O_DIRECT} and fetches the alignment.
     *
     * @throws IOException if the file cannot be opened, or cannot do direct I/O when asked to
     */
    static AioFileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        Set<OpenOption> jdkOptions = new HashSet<>(options);
        boolean direct = jdkOptions.remove(ProactorOpenOption.DIRECT);
        boolean writable = jdkOptions.contains(StandardOpenOption.WRITE)
                || jdkOptions.contains(StandardOpenOption.APPEND);
        boolean readable = jdkOptions.contains(StandardOpenOption.READ) || !writable;
        FileChannel file = FileChannel.open(path, jdkOptions);
        try {
            return on(file, true, readable, writable, direct, "file " + path);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Runs requests on {@code file}, which the user opened and keeps owning (closing this channel leaves it open);
     * {@code options} as {@link dev.proactor.spi.Engine#wrapFile} gives them.
     *
     * @throws IllegalArgumentException if {@code file} is not the JDK's own file channel
     * @throws IOException              if it is closed, or cannot do direct I/O when asked to
     */
    static AioFileChannel wrap(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        return on(file, false, options.contains(StandardOpenOption.READ), options.contains(StandardOpenOption.WRITE),
                options.contains(ProactorOpenOption.DIRECT), "wrapped " + file);
    }

    private static AioFileChannel on(FileChannel file, boolean owned, boolean readable, boolean writable,
                                     boolean direct, String description) throws IOException {
        int original = FileNative.fdOf(file);
        if (original == -ErrnoNative.EOPNOTSUPP) {
            throw new IllegalArgumentException("the linux-aio engine needs the JDK's own FileChannel, not "
                    + file.getClass().getName());
        }
        int fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)", FileNative.duplicate(Errors.check("file descriptor",
                original)));
        try {
            int kind = Errors.check("fstat", FileNative.kindOf(fd));
            DirectIoAlignment alignment = direct ? DirectIoAlignment.enable(fd, description) : null;
            return new AioFileChannel(fd, file, owned, readable, writable, alignment, kind,
                    description + (direct ? " (O_DIRECT)" : ""));
        } catch (IOException | RuntimeException e) {
            IoNative.close(fd);
            throw e;
        }
    }

    /** Whether this file's transfers go to the kernel's AIO (see {@link #disk}). */
    boolean isDisk() {
        return disk;
    }

    /**
     * {@code io_submit} refused a transfer of this file it cannot serve ({@code EINVAL} without {@code O_DIRECT}: a
     * pseudo-file that reports size 0): this and every later transfer run on the workers with the JDK channel.
     */
    void aioRefused() {
        disk = false;
    }

    /** The JDK channel on the file, which the workers read and write a file that is not a disk file with. */
    FileChannel jdk() {
        return file;
    }

    /**
     * Starts a submission on {@link #fd}: whether the channel is open (and the JDK channel too: a wrapped file
     * closed by its owner ends this channel as well). If so, {@link #fd} stays open until {@link #endSubmit()}.
     * Takes this channel's lock for a moment, never across the submission.
     */
    synchronized boolean beginSubmit() {
        if (closed || !file.isOpen()) {
            return false;
        }
        submitting++;
        return true;
    }

    /** Ends what a successful {@link #beginSubmit()} began; closes {@link #fd} if the channel was closed meanwhile. */
    void endSubmit() {
        int result;
        synchronized (this) {
            if (--submitting > 0 || !closed || fdClosed) {
                return;
            }
            fdClosed = true;
            result = IoNative.close(fd);
        }
        if (result < 0) {
            // The channel's close() returned already: nobody is left to report it to.
            LOG.warn("closing the descriptor of {} after its last submission failed", description,
                    Errors.newException("close", result));
        }
    }

    @Override
    public SocketAddress localAddress() {
        return null;
    }

    @Override
    public SocketAddress remoteAddress() {
        return null;
    }

    @Override
    public void shutdownOutput() {
        throw new UnsupportedOperationException("shutdownOutput needs a connected stream socket, not a file");
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    /**
     * Closes the engine's descriptor (now, or when the submission in progress ends) and, unless the user owns it,
     * the JDK channel; requests in flight complete with their own results.
     */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (submitting == 0) { // else the last submitter closes it (endSubmit)
                fdClosed = true;
                int result = IoNative.close(fd);
                if (result < 0) {
                    failure = Errors.newException("close", result);
                }
            }
        }
        if (owned) {
            try {
                file.close();
            } catch (IOException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public synchronized boolean isClosed() {
        return closed || !file.isOpen();
    }

    @Override
    public String toString() {
        return description;
    }
}
