package dev.proactor.nio2.files;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Opens the channels of {@link ProactorFiles} (which holds the public contract and the default demultiplexor): the
 * options are read, what the demultiplexor certainly cannot run is refused before the file is opened, the JDK opens
 * the file, and the channel takes it over (closing it if the channel cannot be made).
 *
 * <p>Public only so that {@link ProactorFiles} reaches it from its package; this package is not exported.
 * Thread-safe.
 */
public final class FileChannels {

    private FileChannels() {
    }

    /**
     * A {@link FileChannel} on {@code path} whose reads and writes run on {@code demultiplexor}, with the
     * {@link FileSettings} of the system properties; see
     * {@link ProactorFiles#open(Demultiplexor, Path, OpenOption...)}.
     *
     * @throws IllegalArgumentException if a {@link FileSettings} property is wrong (nothing opened)
     */
    public static FileChannel open(Demultiplexor demultiplexor, Path path, OpenOption... options)
            throws IOException {
        return open(demultiplexor, FileSettings.fromSystemProperties(), path, options);
    }

    /** A {@link FileChannel} as {@link #open(Demultiplexor, Path, OpenOption...)}, with {@code settings}. */
    static FileChannel open(Demultiplexor demultiplexor, FileSettings settings, Path path, OpenOption... options)
            throws IOException {
        Objects.requireNonNull(demultiplexor, "demultiplexor");
        FileOptions o = FileOptions.of(options);
        checkFileEngine(demultiplexor, o);
        FileChannel file = FileChannel.open(path, o.jdk);
        try {
            return new ProactorFileChannel(demultiplexor, file, o, settings);
        } catch (IOException | RuntimeException | Error e) {
            closeAfter(file, e);
            throw e;
        }
    }

    /**
     * An {@link AsynchronousFileChannel} on {@code path} whose operations run on {@code demultiplexor}, with the
     * {@link FileSettings} of the system properties; see
     * {@link ProactorFiles#openAsynchronous(Demultiplexor, Path, OpenOption...)}.
     *
     * @throws IllegalArgumentException if a {@link FileSettings} property is wrong (nothing opened)
     */
    public static AsynchronousFileChannel openAsynchronous(Demultiplexor demultiplexor, Path path,
                                                           OpenOption... options) throws IOException {
        return openAsynchronous(demultiplexor, FileSettings.fromSystemProperties(), path, options);
    }

    /**
     * An {@link AsynchronousFileChannel} as {@link #openAsynchronous(Demultiplexor, Path, OpenOption...)}, with
     * {@code settings}.
     */
    static AsynchronousFileChannel openAsynchronous(Demultiplexor demultiplexor, FileSettings settings, Path path,
                                                    OpenOption... options) throws IOException {
        Objects.requireNonNull(demultiplexor, "demultiplexor");
        FileOptions o = FileOptions.ofAsynchronous(options);
        checkFileEngine(demultiplexor, o);
        FileChannel file = FileChannel.open(path, o.jdk);
        try {
            return new ProactorAsynchronousFileChannel(demultiplexor, file, o, settings);
        } catch (IOException | RuntimeException | Error e) {
            closeAfter(file, e);
            throw e;
        }
    }

    /**
     * Refuses, before the file is opened (and perhaps created), what the demultiplexor certainly cannot run: no file
     * engine at all, or direct I/O on the thread-pool engine. Anything else an engine refuses fails the open after.
     */
    private static void checkFileEngine(Demultiplexor demultiplexor, FileOptions options) {
        String engine = demultiplexor.getFileEngineName();
        if (engine == null) {
            throw new UnsupportedOperationException("no engine of " + demultiplexor + " runs files ("
                    + ProactorConfig.FILE_ENGINE + " is '" + demultiplexor.getConfig().fileEngine() + "')");
        }
        if (options.direct && engine.equals(ProactorConfig.FILE_ENGINE_THREADPOOL)) {
            throw new UnsupportedOperationException("direct I/O (O_DIRECT) needs an engine that runs files itself"
                    + " (proactor.engine=io_uring or linux-aio); the threadpool file engine does buffered I/O only");
        }
    }

    private static void closeAfter(FileChannel file, Throwable failure) {
        try {
            file.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
