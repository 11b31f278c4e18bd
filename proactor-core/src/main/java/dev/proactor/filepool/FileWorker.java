package dev.proactor.filepool;

import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread of the file engine: takes requests from the {@link WorkQueue}, runs the positional read or
 * write, records the result in the request (errors included: nothing is thrown away) and hands it to the
 * {@link CompletionQueue}. Runs until the queue is stopped.
 *
 * <p>A request of a file without a position (a pipe, a FIFO) may wait for another party as long as it likes, so it
 * is handed to the engine's elastic pool ({@code streams}, a thread per such transfer in progress) instead of keeping
 * one of the few workers from the disk files; it still counts as running until it finished.
 */
final class FileWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FileWorker.class);

    private final WorkQueue work;
    private final CompletionQueue done;
    private final Executor streams;

    FileWorker(WorkQueue work, CompletionQueue done, Executor streams) {
        this.work = work;
        this.done = done;
        this.streams = streams;
    }

    @Override
    public void run() {
        for (;;) {
            IoRequest r;
            try {
                r = work.take();
            } catch (InterruptedException e) {
                LOG.warn("file worker {} interrupted; stopping it", Thread.currentThread().getName(), e);
                return;
            }
            if (r == null) {
                return;
            }
            if (isStream(r)) {
                IoRequest handed = r;
                try {
                    streams.execute(() -> finish(handed));
                    continue;
                } catch (RejectedExecutionException e) {
                    LOG.debug("no thread for a transfer of a pipe on {}; running it on worker {}", r.channel(),
                            Thread.currentThread().getName(), e);
                }
            }
            finish(r);
        }
    }

    /** Whether {@code r}'s file has no position; false for a closed one ({@link #perform} then fails it). */
    private static boolean isStream(IoRequest r) {
        try {
            return ((FilePoolChannel) r.channel()).isStream();
        } catch (ClosedChannelException e) {
            return false;
        }
    }

    /** Runs {@code r} on the calling thread and completes it. */
    private void finish(IoRequest r) {
        try {
            perform(r);
        } catch (IOException | RuntimeException e) {
            r.fail(e);
        } catch (Error e) {
            r.fail(e); // still completes exactly once; the error reaches the handler
            LOG.error("file operation {} failed with an error", r.kind(), e);
        }
        done.add(r);     // first the completion ...
        work.finished(); // ... then "not running": a closer waiting for idle then finds it queued
    }

    /**
     * Runs one request to completion in the calling thread: at the request's position, or, on a file without one
     * (a pipe, a FIFO), where the stream is ({@code read(2)}, {@code write(2)}: {@code pread(2)} would fail with
     * "Illegal seek"), as the kernel's asynchronous interfaces do.
     */
    static void perform(IoRequest r) throws IOException {
        FilePoolChannel channel = (FilePoolChannel) r.channel();
        FileChannel file = channel.file;
        ByteBuffer buffer = r.firstBuffer();
        boolean stream = channel.isStream();
        if (r.kind() == OpKind.READ_FILE) {
            int n = stream ? file.read(buffer) : file.read(buffer, r.position());
            r.complete(n < 0 ? -1 : n);
        } else if (r.kind() == OpKind.WRITE_FILE) {
            long position = r.position();
            while (buffer.hasRemaining()) {
                r.addBytes(stream ? file.write(buffer) : file.write(buffer, position + r.bytes()));
            }
        } else {
            throw new IllegalArgumentException("the file engine does not run " + r.kind());
        }
    }
}
