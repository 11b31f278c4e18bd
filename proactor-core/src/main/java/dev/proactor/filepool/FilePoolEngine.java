package dev.proactor.filepool;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The file engine {@value #NAME} (see the package description for why it is built in): runs
 * {@link OpKind#READ_FILE} and {@link OpKind#WRITE_FILE} as positional {@link FileChannel} calls (plain ones on a
 * file without a position: a pipe, a FIFO) on a fixed pool of worker threads, started with the first file opened.
 * A request waits in a FIFO queue for a free worker; the worker runs it to completion (a write until every byte is
 * written) and hands it to the wait strategy, in which the processor's leader (a dedicated thread) sleeps. A transfer
 * of a pipe or FIFO, which may wait for its other side as long as it likes, goes on to a thread of its own (an
 * elastic pool), so such transfers never take the workers from the disk files.
 *
 * <p>Cancel: a request still waiting for a worker is removed and completes with the cancel reason; one a worker
 * has taken runs to the end and completes with its own result (a positional file call cannot be stopped
 * halfway, and closing the channel under it makes the JDK end it with
 * {@link java.nio.channels.AsynchronousCloseException}).
 *
 * <p>Threading: every method may be called from any thread ({@link #canStartFromAnyThread()}); starting never
 * needs the leader interrupted, because the workers wake it themselves.
 */
public final class FilePoolEngine implements Engine {

    /** The engine's name, also the {@code proactor.fileEngine} value that selects it. */
    public static final String NAME = "threadpool";

    private final String threadPrefix;
    private final int threads;
    private final WorkQueue work = new WorkQueue();
    private final CompletionQueue done = new CompletionQueue();
    private final List<Thread> workers = new ArrayList<>();
    /** Transfers of files without a position (pipes, FIFOs): a thread each, ended after a minute unused. */
    private final ThreadPoolExecutor streams;

    /**
     * Creates the engine; no thread is started before the first {@link #openFile}.
     *
     * @param threadPrefix prefix of the worker thread names
     * @param threads      number of worker threads, at least 1
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public FilePoolEngine(String threadPrefix, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("file engine threads must be positive: " + threads);
        }
        this.threadPrefix = threadPrefix;
        this.threads = threads;
        AtomicInteger ids = new AtomicInteger();
        this.streams = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, threadPrefix + "-stream-" + ids.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public WaitStrategy waitStrategy() {
        return done;
    }

    @Override
    public boolean supports(OpKind kind) {
        return (OpKind.FILE_MASK & kind.bit()) != 0;
    }

    @Override
    public boolean startInterruptsLeader() {
        return false; // workers wake the leader when they finish
    }

    // ---------------------------------------------------------------- channels

    /**
     * Opens {@code path} with {@code options} and starts the workers if this is the first file.
     *
     * @throws UnsupportedOperationException for {@link dev.proactor.ProactorOpenOption#DIRECT}: direct I/O is run by
     *                                       engines that do files themselves ({@code linux-aio}, {@code io_uring})
     */
    @Override
    public EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        if (options.contains(dev.proactor.ProactorOpenOption.DIRECT)) {
            throw new UnsupportedOperationException("ProactorOpenOption.DIRECT needs an engine that runs files itself"
                    + " (proactor.engine=linux-aio or io_uring); the " + NAME + " file engine does buffered I/O only");
        }
        FileChannel file = FileChannel.open(path, options);
        try {
            startWorkers();
        } catch (RuntimeException | Error e) {
            file.close();
            throw e;
        }
        return new FilePoolChannel(file, true, "file " + path);
    }

    /**
     * Runs requests on the caller's {@code file} itself (the workers' positional calls need no descriptor of
     * their own); closing the returned channel leaves {@code file} open.
     *
     * @throws UnsupportedOperationException for {@link dev.proactor.ProactorOpenOption#DIRECT}, as {@link #openFile}
     */
    @Override
    public EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) {
        if (options.contains(dev.proactor.ProactorOpenOption.DIRECT)) {
            throw new UnsupportedOperationException("ProactorOpenOption.DIRECT needs an engine that runs files itself"
                    + " (proactor.engine=linux-aio or io_uring); the " + NAME + " file engine does buffered I/O only");
        }
        startWorkers();
        return new FilePoolChannel(file, false, "wrapped " + file);
    }

    private synchronized void startWorkers() {
        if (!workers.isEmpty()) {
            return;
        }
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(new FileWorker(work, done, streams), threadPrefix + "-worker-" + (i + 1));
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    /** Files are opened with {@link #openFile}: a JDK channel cannot be registered. */
    @Override
    public EngineChannel register(Channel channel) {
        throw new IllegalArgumentException("the file engine has no socket channels");
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) {
        throw new UnsupportedOperationException("the file engine has no socket channels");
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) {
        throw new UnsupportedOperationException("the file engine has no socket channels");
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) {
        throw new UnsupportedOperationException("the file engine has no socket channels");
    }

    @Override
    public void discard(Object acceptedHandle) {
        throw new UnsupportedOperationException("the file engine accepts no connections");
    }

    // ---------------------------------------------------------------- requests

    @Override
    public StartResult start(IoRequest request) {
        if (!supports(request.kind())) {
            request.fail(new IllegalArgumentException("the file engine does not run " + request.kind()));
            return StartResult.COMPLETED;
        }
        if (request.channel().isClosed()) {
            request.fail(new ClosedChannelException());
            return StartResult.COMPLETED;
        }
        work.submit(request);
        return StartResult.PENDING;
    }

    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        if (work.removeWaiting(request)) {
            request.fail(reason);
            return true;
        }
        return false; // running on a worker or already finished: it completes with its own result
    }

    /** Waits until no request is waiting for or running on a worker. */
    @Override
    public void quiesce() throws InterruptedException {
        work.awaitIdle();
    }

    /**
     * Stops the workers (after they finished what was queued) and waits for them; a transfer of a pipe still waiting
     * for its other side ends with it (its thread is not waited for).
     */
    @Override
    public void close() {
        work.stop();
        List<Thread> all;
        synchronized (this) {
            all = new ArrayList<>(workers);
        }
        boolean interrupted = false;
        for (Thread t : all) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        streams.shutdown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return NAME + "[" + threads + " workers]";
    }
}
