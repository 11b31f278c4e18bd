package dev.proactor.nio2;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.nio2.files.FileChannels;
import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The JDK's file channels on this project's file engines: an {@link AsynchronousFileChannel} and a
 * {@link FileChannel} that a virtual thread blocks on without pinning its carrier. Reads and writes run on the
 * demultiplexor's file engine: {@code io_uring} or {@code linux-aio} when that is the demultiplexor's engine, the
 * thread-pool file engine otherwise (see {@link ProactorConfig}); everything else (size, truncate, force, locks,
 * map, transfers) is done by the JDK's {@code FileChannel} on the same open file, which is also what opens it, so
 * the open options, their checks and their errors are exactly {@code FileChannel.open}'s.
 *
 * <pre>{@code
 * try (FileChannel ch = ProactorFiles.open(path, StandardOpenOption.READ)) {   // -Dproactor.engine=io_uring
 *     ByteBuffer buf = ByteBuffer.allocateDirect(4096);
 *     ch.read(buf, position);            // a virtual thread parks here and frees its carrier
 * }
 * }</pre>
 *
 * <p><b>Options.</b> Those of {@code FileChannel.open}, plus {@link dev.proactor.ProactorOpenOption#DIRECT} (or the
 * JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}) for {@code O_DIRECT} on the engines that have it
 * ({@code io_uring}, {@code linux-aio}; the thread-pool engine refuses it with
 * {@link UnsupportedOperationException}). With {@code O_DIRECT} every transfer's file position and length must be
 * multiples of the file's alignment (a misaligned one fails with {@link IllegalArgumentException}); a direct buffer
 * must also be aligned, a heap buffer is copied through an aligned one.
 *
 * <p><b>Concurrency.</b> Each channel keeps up to {@code proactor.fileLanes} operations in the engine at once (a
 * positive integer, default 128, read from the system properties when the channel opens; a wrong value fails the
 * open with {@link IllegalArgumentException}); more wait behind them. An operation started inside a completion
 * handler of the same channel never waits behind that handler (so the handler may wait for it): with a limit of 1
 * it gets one lane beyond the limit.
 *
 * <p><b>Files without a position</b> (a pipe, a FIFO, a terminal) behave as with the JDK: relative reads and writes
 * go where the stream is, a read returns what one read brings (it never waits for more once it has bytes), and what
 * needs a position ({@code position()}, positional transfers, every transfer of the asynchronous channel) fails
 * with an {@link IOException} ("Illegal seek"). A read that waits for a writer parks its caller like any other: no
 * engine runs it on the calling thread.
 *
 * <p><b>Failures.</b> A transfer that fails after moving bytes (heap buffers move in chunks, scattering and
 * gathering transfers buffer by buffer) returns the bytes it moved, as the JDK's single system call would, and
 * throws only when it moved nothing.
 *
 * <p><b>The default demultiplexor</b> is made on first use from the {@code proactor.*} system properties
 * ({@link ProactorConfig#fromSystemProperties()}) and started; its daemon threads dispatch completions (and run
 * {@link java.nio.channels.CompletionHandler}s) for every channel opened without a demultiplexor. It is never
 * closed.
 *
 * <p><b>Blocking inside a handler.</b> A thread blocked in one of these {@code FileChannel}s, or in
 * {@code Future.get()} of the asynchronous one, waits for a completion that the demultiplexor's pool threads
 * dispatch. A completion handler runs on such a thread, so it must not block on a channel of the same
 * demultiplexor: with every pool thread waiting so, no thread is left to dispatch (the JDK's channel groups have
 * the same rule for their threads).
 *
 * <p>Thread-safe.
 */
public final class ProactorFiles {

    private static final ReentrantLock DEFAULT_LOCK = new ReentrantLock();
    private static volatile Demultiplexor defaultDemultiplexor;

    private ProactorFiles() {
    }

    /**
     * Opens a file as {@link FileChannel#open(Path, OpenOption...)} does, on the default demultiplexor.
     *
     * @throws UnsupportedOperationException if an option is not supported, or the default demultiplexor has no file
     *                                       engine ({@code proactor.fileEngine=none}) or none with direct I/O
     * @throws IOException                   as {@code FileChannel.open}, or if the file engine cannot use the file
     */
    public static FileChannel open(Path path, OpenOption... options) throws IOException {
        return open(defaultDemultiplexor(), path, options);
    }

    /**
     * Opens a file as {@link FileChannel#open(Path, OpenOption...)} does; its reads and writes run on
     * {@code demultiplexor}, which must be dispatching completions (started, or served by
     * {@link Demultiplexor#handleEvents}) for them to end.
     *
     * @throws IllegalStateException if the demultiplexor is closed
     * @see #open(Path, OpenOption...)
     */
    public static FileChannel open(Demultiplexor demultiplexor, Path path, OpenOption... options)
            throws IOException {
        return FileChannels.open(demultiplexor, path, options);
    }

    /**
     * Opens a file as {@link AsynchronousFileChannel#open(Path, OpenOption...)} does, on the default
     * demultiplexor: completion handlers run on its threads.
     *
     * @throws UnsupportedOperationException for {@link java.nio.file.StandardOpenOption#APPEND} (as the JDK), an
     *                                       unsupported option, or no file engine (with direct I/O, if asked)
     * @throws IOException                   as {@code AsynchronousFileChannel.open}, or if the file engine cannot
     *                                       use the file
     */
    public static AsynchronousFileChannel openAsynchronous(Path path, OpenOption... options) throws IOException {
        return openAsynchronous(defaultDemultiplexor(), path, options);
    }

    /**
     * Opens a file as {@link AsynchronousFileChannel#open(Path, OpenOption...)} does; its operations run on
     * {@code demultiplexor}, whose dispatching threads run the completion handlers.
     *
     * @throws IllegalStateException if the demultiplexor is closed
     * @see #openAsynchronous(Path, OpenOption...)
     */
    public static AsynchronousFileChannel openAsynchronous(Demultiplexor demultiplexor, Path path,
                                                           OpenOption... options) throws IOException {
        return FileChannels.openAsynchronous(demultiplexor, path, options);
    }

    /**
     * The demultiplexor channels opened without one use: made on first use from the {@code proactor.*} system
     * properties and started.
     *
     * @throws IOException if it cannot be opened (e.g. {@code proactor.strict=true} with an unavailable engine)
     */
    public static Demultiplexor defaultDemultiplexor() throws IOException {
        Demultiplexor d = defaultDemultiplexor;
        if (d != null) {
            return d;
        }
        // A ReentrantLock, not a monitor: a virtual thread that waits here parks and frees its carrier.
        DEFAULT_LOCK.lock();
        try {
            d = defaultDemultiplexor;
            if (d == null) {
                d = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start();
                defaultDemultiplexor = d;
            }
            return d;
        } finally {
            DEFAULT_LOCK.unlock();
        }
    }
}
