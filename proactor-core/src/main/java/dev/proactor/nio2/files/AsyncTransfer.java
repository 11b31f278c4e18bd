package dev.proactor.nio2.files;

import dev.proactor.AsynchHandler;
import dev.proactor.NotifyLevel;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;

/**
 * One read or write of a {@link ProactorAsynchronousFileChannel}, from its start to the delivery of its outcome to
 * a {@link CompletionHandler} or a {@link FileFuture}. Objects are pooled per channel and reused, so the
 * handler path with a direct buffer allocates nothing per operation: the lanes' operation objects are reused by
 * the core, and the result is boxed once per distinct value ({@link #box}), so a loop of equal-sized reads reuses
 * one {@code Integer}.
 *
 * <p>A direct buffer is one engine operation (a read may be short, a write writes everything). A heap buffer moves
 * in chunks through a pooled direct buffer ({@link BounceBuffers}): a write goes on until every byte is written, a
 * read until the buffer is full, a chunk comes back short, or end of file. An operation that fails after moving
 * bytes (a later chunk, the rest of a write) completes with the bytes it moved, as the JDK's single system call
 * would; it fails only when it moved nothing.
 *
 * <p>Threads: started by the caller; continued and finished by the thread that dispatches the lane's completion,
 * which also runs the handler (a pool thread of the demultiplexor). An operation that completes without I/O (a
 * closed channel, nothing to transfer) is posted to a pool thread, as the JDK invokes such handlers indirectly, so
 * a handler that starts the next operation never recurses on one stack. What a handler throws goes to its thread's
 * uncaught-exception handler.
 */
final class AsyncTransfer extends LaneTransfer {

    private final ProactorAsynchronousFileChannel channel;

    // The operation in progress; written by the starting thread before the first lane operation, then used by
    // the completing thread (the lane's hand-off orders them).
    private boolean read;
    private ByteBuffer user;
    private ByteBuffer bounce;
    private int chunk;
    private long position;
    private long total;
    private CompletionHandler<Integer, Object> handler;
    private Object attachment;
    private FileFuture<Integer> future;

    /** The last boxed result, reused while results repeat. */
    private Integer box;
    /** Posts an outcome reached without I/O to a pool thread; made on first use. */
    private OpTimer poster;
    private int postedResult;
    private Throwable postedError;

    AsyncTransfer(ProactorAsynchronousFileChannel channel) {
        this.channel = channel;
    }

    /**
     * Starts the operation, or, when {@code now} is set, completes it with {@code nowError} (or 0 bytes) without
     * I/O.
     */
    @SuppressWarnings("unchecked")
    void start(boolean read, ByteBuffer buffer, long position, Object attachment,
               CompletionHandler<Integer, ?> handler, FileFuture<Integer> future, boolean now,
               Throwable nowError) {
        this.read = read;
        this.user = buffer;
        this.position = position;
        this.total = 0;
        this.attachment = attachment;
        this.handler = (CompletionHandler<Integer, Object>) handler;
        this.future = future;
        if (now) {
            completeWithoutIo(nowError);
            return;
        }
        try {
            next();
        } catch (RuntimeException | Error e) {
            clear();
            channel.recycle(this);
            throw e;
        }
    }

    /** Starts the next engine operation at {@code position + total}. */
    private void next() {
        long at = position + total;
        if (user.isDirect()) {
            submit(user, at);
            return;
        }
        ByteBuffer b = BounceBuffers.take(user.remaining());
        chunk = b.remaining();
        if (!read) {
            b.put(0, user, user.position(), chunk);
        }
        bounce = b;
        try {
            submit(b, at);
        } catch (RuntimeException | Error e) {
            bounce = null;
            BounceBuffers.give(b);
            throw e;
        }
    }

    private void submit(ByteBuffer b, long at) {
        if (read) {
            channel.lanes().read(this, b, at);
        } else {
            channel.lanes().write(this, b, at);
        }
    }

    @Override
    void laneDone(long n, Throwable error) {
        ByteBuffer b = bounce;
        if (b != null) {
            bounce = null;
            if (n > 0) { // with an error too: a write that failed after writing some bytes
                if (read) {
                    user.put(b.flip());
                } else {
                    user.position(user.position() + (int) n);
                }
            }
            BounceBuffers.give(b);
        }
        if (error != null) {
            // As the JDK's one system call: bytes moved (by this or an earlier chunk) are the result, and the
            // buffer's position counts them; the error is reported only when nothing moved.
            long moved = total + Math.max(n, 0);
            if (moved > 0) {
                finish(moved, null);
            } else {
                finish(0, reported(error));
            }
            return;
        }
        if (n < 0) {
            finish(total == 0 ? -1 : total, null);
            return;
        }
        total += n;
        boolean more = b != null && user.hasRemaining() && (!read || n == chunk) && channel.isOpen();
        if (more) {
            try {
                next();
            } catch (RuntimeException | Error e) {
                finish(0, e);
            }
            return;
        }
        finish(total, null);
    }

    /**
     * The error as the JDK's channel reports it: the operation started on an open channel, so a close since then
     * is an asynchronous close; the engine's {@link IllegalArgumentException} (the checks at the call passed, so it
     * is an {@code O_DIRECT} misalignment) is an I/O error, as the kernel's {@code EINVAL} is for the JDK.
     */
    private static Throwable reported(Throwable error) {
        if (error instanceof ClosedChannelException && !(error instanceof AsynchronousCloseException)) {
            return new AsynchronousCloseException();
        }
        if (error instanceof IllegalArgumentException misaligned) {
            return new java.io.IOException(misaligned.getMessage(), misaligned);
        }
        return error;
    }

    private void completeWithoutIo(Throwable error) {
        if (future != null) {
            finish(0, error);
            return;
        }
        postedResult = 0;
        postedError = error;
        try {
            if (poster == null) {
                poster = channel.lanes().demultiplexor().newTimer(new Poster(this));
            }
            channel.lanes().demultiplexor().post(poster, NotifyLevel.STRONG);
        } catch (IllegalStateException demultiplexorClosed) {
            finish(0, error); // nobody else will run it
        }
    }

    /** Delivers the outcome after giving this object back to the pool (the handler may start the next one). */
    private void finish(long result, Throwable error) {
        CompletionHandler<Integer, Object> h = handler;
        Object a = attachment;
        FileFuture<Integer> f = future;
        int r = (int) result;
        Integer boxed = null;
        if (error == null) {
            boxed = box;
            if (boxed == null || boxed != r) {
                boxed = Integer.valueOf(r);
                box = boxed;
            }
        }
        clear();
        channel.recycle(this);
        if (f != null) {
            f.complete(boxed, error);
            return;
        }
        try {
            if (error == null) {
                h.completed(boxed, a);
            } else {
                h.failed(error, a);
            }
        } catch (Throwable t) {
            Thread me = Thread.currentThread();
            try {
                me.getUncaughtExceptionHandler().uncaughtException(me, t);
            } catch (Throwable ignored) {
                // an uncaught-exception handler that throws has nowhere else to report to
            }
        }
    }

    private void clear() {
        user = null;
        handler = null;
        attachment = null;
        future = null;
        postedError = null;
    }

    /**
     * The handler of the timer that is only ever posted ({@link #poster}): each posted completion finishes the
     * transfer with the outcome reached without I/O, on the pool thread that dispatches it.
     */
    private static final class Poster implements AsynchHandler {

        private final AsyncTransfer transfer;

        Poster(AsyncTransfer transfer) {
            this.transfer = transfer;
        }

        @Override
        public void onTimerCompleted(OpTimer op) {
            transfer.finish(transfer.postedResult, transfer.postedError);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("a posting timer reads nothing");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("a posting timer writes nothing");
        }
    }
}
