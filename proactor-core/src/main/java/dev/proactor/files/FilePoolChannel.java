package dev.proactor.files;

import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;

/**
 * The file engine's state of one open file: the JDK {@link FileChannel} the workers call positional reads and
 * writes on. Thread-safe: {@link FileChannel} is, and {@link #closed} is volatile.
 *
 * <p>A wrapped file ({@link FilePoolEngine#wrapFile}) stays open when this channel closes: requests on workers
 * then complete with their own results, and later ones fail as closed.
 *
 * <p>Closing while a worker is inside a read or write is safe: the JDK's file channel keeps the descriptor
 * number reserved until no thread is in a system call on it, and the worker's call then returns its result or
 * throws {@link java.nio.channels.AsynchronousCloseException}.
 */
final class FilePoolChannel implements EngineChannel {

    final FileChannel file;
    /** Whether {@link #close()} closes {@link #file} (false for a file the user wrapped and still owns). */
    private final boolean owned;
    private final String description;
    private volatile boolean closed;

    FilePoolChannel(FileChannel file, boolean owned, String description) {
        this.file = file;
        this.owned = owned;
        this.description = description;
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

    @Override
    public void close() throws IOException {
        closed = true;
        if (owned) {
            file.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed || !file.isOpen();
    }

    @Override
    public String toString() {
        return description;
    }
}
