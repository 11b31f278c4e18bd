package dev.proactor.jni.aio;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads and writes of an {@link AioContext} on files that are not disk files (a pipe, a FIFO, a terminal, another
 * character device): kernel AIO is asynchronous for direct disk I/O only, and {@code io_submit} runs any other
 * transfer to its end on the submitting thread (a pipe read waits there for a writer), which must never be the
 * caller's: it may be a virtual thread's only carrier. So they run on threads of this pool instead, one per transfer
 * in progress (daemon threads "proactor-aio-file-N", ended after a minute unused), with the JDK channel: a plain
 * {@code read}/{@code write} on a file without a position (the request's position means nothing there, as for the
 * kernel's own asynchronous interfaces), a positional one otherwise. A finished request is queued and the context's
 * eventfd signalled, so the leader's {@link AioContext#collect} takes it with the kernel's completions.
 *
 * <p>Cancel: none, as for file iocbs; closing the file ends a transfer waiting in it (the JDK channel's close wakes
 * its thread, which completes the request with {@link java.nio.channels.AsynchronousCloseException}). Each transfer
 * allocates its task: these are not the disk files of the zero-allocation path.
 *
 * <p>Thread-safe: {@link #start} from any thread, {@link #drainTo} by the leader, {@link #awaitIdle} and
 * {@link #close} at the end; the queue, the count and the closed state are guarded by this.
 */
final class AioBlockingFiles {

    private static final Logger LOG = LoggerFactory.getLogger(AioBlockingFiles.class);
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    /** The context's eventfd, signalled once per finished request; never written after {@link #close()}. */
    private final int eventfd;
    private final ThreadPoolExecutor workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "proactor-aio-file-" + THREAD_IDS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
    private final ArrayDeque<IoRequest> finished = new ArrayDeque<>();
    /** Requests started and not yet taken by {@link #drainTo}. */
    private int pending;
    private boolean closed;

    AioBlockingFiles(int eventfd) {
        this.eventfd = eventfd;
    }

    /**
     * Runs {@code request} on a worker; it completes through {@link #drainTo}.
     *
     * @return false if this was closed (nothing started)
     */
    boolean start(IoRequest request, AioFileChannel channel) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            pending++;
        }
        workers.execute(() -> run(request, channel));
        return true;
    }

    private void run(IoRequest request, AioFileChannel channel) {
        try {
            perform(request, channel.jdk(), channel.stream);
        } catch (IOException | RuntimeException e) {
            request.fail(e);
        } catch (Error e) {
            request.fail(e); // still completes exactly once; the error reaches the handler
            LOG.error("file operation {} on {} failed with an error", request.kind(), channel, e);
        }
        synchronized (this) {
            if (closed) {
                return; // the demultiplexor is gone, and the eventfd with it: nobody dispatches this any more
            }
            finished.addLast(request);
            notifyAll(); // awaitIdle
            int result = EpollNative.eventfdWrite(eventfd, 1);
            if (result < 0) {
                LOG.error("signalling a finished file operation on {} failed; it is dispatched with the next"
                        + " completion", channel, Errors.newException("eventfd write", result));
            }
        }
    }

    /** One transfer, to its end, on the calling worker. */
    private static void perform(IoRequest r, FileChannel file, boolean stream) throws IOException {
        ByteBuffer[] buffers = r.buffers();
        int end = r.offset() + r.length();
        if (r.kind() == OpKind.READ_FILE) {
            long total = 0;
            for (int i = r.offset(); i < end; i++) {
                ByteBuffer b = buffers[i];
                if (!b.hasRemaining()) {
                    continue;
                }
                int n = stream ? file.read(b) : file.read(b, r.position() + total);
                if (n < 0) {
                    r.complete(total == 0 ? -1 : total);
                    return;
                }
                total += n;
                if (b.hasRemaining() || stream) {
                    break; // short, or a stream that may have nothing more now
                }
            }
            r.complete(total);
        } else {
            for (int i = r.offset(); i < end; i++) {
                ByteBuffer b = buffers[i];
                while (b.hasRemaining()) {
                    r.addBytes(stream ? file.write(b) : file.write(b, r.position() + r.bytes()));
                }
            }
        }
    }

    /** Leader: moves the finished requests to {@code completed}. */
    synchronized void drainTo(Queue<IoRequest> completed) {
        IoRequest r;
        while ((r = finished.pollFirst()) != null) {
            completed.add(r);
            pending--;
        }
    }

    /**
     * Waits until every started request finished (or {@code deadlineNanos}, of {@link System#nanoTime()}, passed)
     * and moves them to {@code completed}.
     *
     * @return requests still running (a transfer waiting for a party that never comes)
     */
    synchronized int awaitIdle(long deadlineNanos, Queue<IoRequest> completed) {
        boolean interrupted = false;
        try {
            while (true) {
                drainTo(completed);
                long left = deadlineNanos - System.nanoTime();
                if (pending == 0 || left <= 0) {
                    return pending;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops signalling (the eventfd closes next) and lets idle workers end; a worker still in a transfer ends with
     * it, and its request is dropped. Idempotent.
     */
    void close() {
        synchronized (this) {
            closed = true;
        }
        workers.shutdown();
    }
}
