package dev.proactor.jni.aio;

import dev.proactor.ProactorOpenOption;
import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.LinuxAioNative;
import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * One file of the Linux AIO engine. The JDK opens it ({@link FileChannel#open}, so errors are the usual
 * {@link java.nio.file.NoSuchFileException} etc.) and answers {@link #size()}; the engine submits its iocbs on its
 * own close-on-exec duplicate of the descriptor ({@link #fd}), so a number the JDK frees can never be used for
 * another file.
 *
 * <p>Lifetime: iocbs are submitted only under this channel's lock and only while it is open, and {@link #close()}
 * marks it closed under the same lock before closing the descriptor; the kernel holds its own reference to the
 * file for every request already submitted, so those run to the end and complete with their own results.
 *
 * <p>Thread-safe.
 */
final class AioFileChannel implements EngineChannel {

    final int fd;
    final boolean readable;
    final boolean writable;
    /** Non-null when opened with {@link ProactorOpenOption#DIRECT}. */
    final DirectIoAlignment alignment;
    private final FileChannel file;
    private final String description;
    /** Guarded by this. */
    private boolean closed;

    private AioFileChannel(int fd, FileChannel file, boolean readable, boolean writable,
                           DirectIoAlignment alignment, String description) {
        this.fd = fd;
        this.file = file;
        this.readable = readable;
        this.writable = writable;
        this.alignment = alignment;
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
        int fd = -1;
        try {
            fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)", FileNative.duplicate(Errors.check("file descriptor",
                    FileNative.fdOf(file))));
            DirectIoAlignment alignment = null;
            if (direct) {
                int result = LinuxAioNative.setDirect(fd, true);
                if (result < 0) {
                    throw new IOException("cannot open " + path + " with O_DIRECT: the file system does not support"
                            + " direct I/O (" + Errors.newException("fcntl(F_SETFL, O_DIRECT)", result).getMessage()
                            + ")");
                }
                alignment = DirectIoAlignment.of(fd, path);
            }
            return new AioFileChannel(fd, file, readable, writable, alignment,
                    "file " + path + (direct ? " (O_DIRECT)" : ""));
        } catch (IOException | RuntimeException e) {
            if (fd >= 0) {
                IoNative.close(fd);
            }
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Whether iocbs may be submitted on {@link #fd}; call with this channel's lock held. */
    boolean isOpenLocked() {
        return !closed;
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

    /** Closes the engine's descriptor and the JDK channel; requests in flight complete with their own results. */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            int result = IoNative.close(fd);
            if (result < 0) {
                IOException failure = Errors.newException("close", result);
                try {
                    file.close();
                } catch (IOException e) {
                    failure.addSuppressed(e);
                }
                throw failure;
            }
        }
        file.close();
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
