package dev.proactor.files;

import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;

/**
 * The file engine's state of one open file: the JDK {@link FileChannel} the workers call positional reads and
 * writes on. Thread-safe: {@link FileChannel} is, and {@link #closed} is volatile.
 *
 * <p>Closing while a worker is inside a read or write is safe: the JDK's file channel keeps the descriptor
 * number reserved until no thread is in a system call on it, and the worker's call then returns its result or
 * throws {@link java.nio.channels.AsynchronousCloseException}.
 */
final class FilePoolChannel implements EngineChannel {

    final FileChannel file;
    private final String description;
    private volatile boolean closed;

    FilePoolChannel(FileChannel file, String description) {
        this.file = file;
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
        file.close();
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
