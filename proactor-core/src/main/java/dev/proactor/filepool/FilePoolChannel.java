package dev.proactor.filepool;

import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * The file engine's state of one open file: the JDK {@link FileChannel} the workers call positional reads and
 * writes on, or plain ones when the file has no position ({@link #isStream()}). Thread-safe: {@link FileChannel} is,
 * and the other fields are volatile.
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
    /** {@link #UNKNOWN}, {@link #POSITIONED} or {@link #STREAM}: found out by the first request's worker. */
    private volatile int kind = UNKNOWN;

    private static final int UNKNOWN = 0;
    private static final int POSITIONED = 1;
    private static final int STREAM = 2;

    FilePoolChannel(FileChannel file, boolean owned, String description) {
        this.file = file;
        this.owned = owned;
        this.description = description;
    }

    /**
     * Whether the file has no position (a pipe, a FIFO, a socket, a terminal: {@code lseek(2)} fails), so a read or
     * write goes where the stream is and a request's position means nothing, as for the kernel's own asynchronous
     * interfaces. Asked of the JDK channel once, on a worker (never inside a caller's blocking section of it).
     *
     * @throws ClosedChannelException if the file is closed
     */
    boolean isStream() throws ClosedChannelException {
        int k = kind;
        if (k == UNKNOWN) {
            try {
                file.position();
                k = POSITIONED;
            } catch (ClosedChannelException e) {
                throw e;
            } catch (IOException e) {
                k = STREAM; // ESPIPE: the only failure of lseek(SEEK_CUR) on an open descriptor
            }
            kind = k;
        }
        return k == STREAM;
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
