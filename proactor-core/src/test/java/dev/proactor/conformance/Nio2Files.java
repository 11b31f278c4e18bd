package dev.proactor.conformance;

import dev.proactor.Demultiplexor;
import dev.proactor.nio2.ProactorFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file channels of one contract test on one {@link Nio2FileTarget}: the JDK's, or ours on a demultiplexor of the
 * test. {@link #close()} closes every channel it opened, then the demultiplexor.
 */
final class Nio2Files implements AutoCloseable {

    /** Null for the JDK's channels. */
    final Demultiplexor demultiplexor;
    private final List<Closeable> opened = new ArrayList<>();

    Nio2Files(Demultiplexor demultiplexor) {
        this.demultiplexor = demultiplexor;
    }

    boolean isJdk() {
        return demultiplexor == null;
    }

    /** The engine that runs file operations: {@code jdk}, or the demultiplexor's file engine. */
    String fileEngine() {
        return demultiplexor == null ? "jdk" : demultiplexor.getFileEngineName();
    }

    /** Whether the file engine can do {@code O_DIRECT} (the JDK's channels can; our thread-pool engine cannot). */
    boolean hasDirectIo() {
        return !"threadpool".equals(fileEngine());
    }

    /** {@code FileChannel.open} or {@code ProactorFiles.open}. */
    FileChannel open(Path path, OpenOption... options) throws IOException {
        FileChannel ch = demultiplexor == null ? FileChannel.open(path, options)
                : ProactorFiles.open(demultiplexor, path, options);
        synchronized (opened) {
            opened.add(ch);
        }
        return ch;
    }

    /** {@code AsynchronousFileChannel.open} or {@code ProactorFiles.openAsynchronous}. */
    AsynchronousFileChannel openAsynchronous(Path path, OpenOption... options) throws IOException {
        AsynchronousFileChannel ch = demultiplexor == null ? AsynchronousFileChannel.open(path, options)
                : ProactorFiles.openAsynchronous(demultiplexor, path, options);
        synchronized (opened) {
            opened.add(ch);
        }
        return ch;
    }

    @Override
    public void close() throws IOException {
        List<Closeable> all;
        synchronized (opened) {
            all = new ArrayList<>(opened);
        }
        try {
            for (Closeable c : all) {
                c.close();
            }
        } finally {
            if (demultiplexor != null) {
                demultiplexor.close();
            }
        }
    }
}
