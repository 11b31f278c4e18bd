package dev.proactor.nio2.files;

import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * A lock the JDK's {@link FileChannel} under a {@link ProactorFiles} channel acquired, presented as a lock of the
 * {@code ProactorFiles} channel ({@link #acquiredBy()} is that channel, as the contract says). Validity and release
 * are the JDK lock's: it is released when the channel is closed (which closes the JDK channel), and the JDK's lock
 * table, one per file in the JVM, refuses overlapping locks of any channel of the process.
 *
 * <p>Thread-safe, as the JDK's lock.
 */
final class ProactorFileLock extends FileLock {

    private final FileLock jdk;

    /** The JDK's {@code lock} as a lock of {@code channel}. */
    ProactorFileLock(FileChannel channel, FileLock jdk) {
        super(channel, jdk.position(), jdk.size(), jdk.isShared());
        this.jdk = jdk;
    }

    /** The JDK's {@code lock} as a lock of the asynchronous {@code channel}. */
    ProactorFileLock(AsynchronousFileChannel channel, FileLock jdk) {
        super(channel, jdk.position(), jdk.size(), jdk.isShared());
        this.jdk = jdk;
    }

    @Override
    public boolean isValid() {
        return jdk.isValid();
    }

    /**
     * Releases the lock.
     *
     * @throws java.nio.channels.ClosedChannelException if the channel is closed (the lock was released with it)
     */
    @Override
    public void release() throws IOException {
        jdk.release();
    }
}
