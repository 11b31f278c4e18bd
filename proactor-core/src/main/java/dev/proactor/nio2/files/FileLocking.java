package dev.proactor.nio2.files;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * File locks of a {@link ProactorAsynchronousFileChannel}, taken by the JDK's {@link FileChannel} on the same open
 * file (the kernel has no asynchronous lock): {@link #tryLock} on the calling thread; {@link #lock} first tries at
 * once on the calling thread (so an overlapping lock held in this JVM throws
 * {@link java.nio.channels.OverlappingFileLockException} from the call, as the JDK's channel does), then, if another
 * process holds the region, waits in {@link FileChannel#lock} on a thread of a shared cached pool ("proactor-file-
 * lock-N", daemon threads that end after a minute unused). Closing the channel closes the JDK channel, which ends
 * such a wait with {@link AsynchronousCloseException}.
 *
 * <p>Outcomes reached without waiting (a closed channel, a lock taken at once) are delivered on that pool too, as the
 * JDK invokes such handlers indirectly. What a handler throws goes to the pool thread's uncaught-exception handler.
 *
 * <p>Thread-safe.
 */
final class FileLocking {

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final ExecutorService WAITERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "proactor-file-lock-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private final AsynchronousFileChannel channel;
    private final FileChannel file;

    FileLocking(AsynchronousFileChannel channel, FileChannel file) {
        this.channel = channel;
        this.file = file;
    }

    /** {@link FileChannel#tryLock} of the JDK channel, as a lock of {@link #channel}. */
    FileLock tryLock(long position, long size, boolean shared) throws IOException {
        FileLock lock = file.tryLock(position, size, shared);
        return lock == null ? null : new ProactorFileLock(channel, lock);
    }

    /**
     * Acquires a lock and delivers it to {@code handler} or {@code future} (exactly one of them is not null); the
     * caller has checked the access.
     *
     * @throws java.nio.channels.OverlappingFileLockException if this JVM holds or waits for an overlapping lock
     * @throws IllegalArgumentException                       for a negative position or size
     */
    void lock(long position, long size, boolean shared, Object attachment, CompletionHandler<FileLock, ?> handler,
              FileFuture<FileLock> future) {
        FileLock lock;
        try {
            lock = channel.isOpen() ? tryLock(position, size, shared) : null;
            if (!channel.isOpen()) {
                throw new ClosedChannelException();
            }
        } catch (IOException e) {
            deliver(handler, attachment, future, null, e);
            return;
        }
        if (lock != null) {
            deliver(handler, attachment, future, lock, null);
            return;
        }
        WAITERS.execute(() -> {
            FileLock waited = null;
            Throwable error = null;
            try {
                waited = new ProactorFileLock(channel, file.lock(position, size, shared));
            } catch (ClosedChannelException e) {
                error = new AsynchronousCloseException(); // closed while waiting, or before the wait began
            } catch (IOException | RuntimeException e) {
                error = e;
            }
            complete(handler, attachment, future, waited, error);
        });
    }

    /** Delivers an outcome reached without waiting: a future at once, a handler on the pool. */
    private static void deliver(CompletionHandler<FileLock, ?> handler, Object attachment,
                                FileFuture<FileLock> future, FileLock lock, Throwable error) {
        if (future != null) {
            future.complete(lock, error);
        } else {
            WAITERS.execute(() -> complete(handler, attachment, null, lock, error));
        }
    }

    @SuppressWarnings("unchecked")
    private static void complete(CompletionHandler<FileLock, ?> handler, Object attachment,
                                 FileFuture<FileLock> future, FileLock lock, Throwable error) {
        if (future != null) {
            future.complete(lock, error);
            return;
        }
        CompletionHandler<FileLock, Object> h = (CompletionHandler<FileLock, Object>) handler;
        if (error == null) {
            h.completed(lock, attachment);
        } else {
            h.failed(error, attachment);
        }
    }
}
