package dev.proactor.nio2;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * The read and write directions of a {@link ProactorSocketChannel}: starts reads (plain and scattering) and writes
 * (plain and gathering) on its {@link AsynchChannel}, each direction allowing one pending operation as the JDK's
 * channels do, and turns the engine's completions into the results and exceptions of the JDK's contract (an
 * {@code Integer} or a {@code Long} count, -1 after {@code shutdownInput}, {@link ClosedChannelException} after
 * {@code shutdownOutput}, {@link AsynchronousCloseException} for what a close ended).
 *
 * <p>Threads: starts run on the caller's thread, completions on the thread that dispatches them (see
 * {@link OperationSlot}). The socket channel checks that it is open and connected before it starts anything here.
 */
final class StreamTransfers {

    final OperationSlot reads;
    final OperationSlot writes;
    /** Set once, by the socket channel's constructor, before anything starts. */
    private AsynchChannel channel;

    /**
     * Set by the socket channel's close before the channel closes: an operation that ends after that with an error
     * or an end of stream ended because of the close (an engine whose cancel is asynchronous, io_uring, may see the
     * peer's end of stream first), so it fails with {@link AsynchronousCloseException} as the JDK's contract says.
     */
    private volatile boolean closing;
    private volatile boolean inputShut;
    private volatile boolean outputShut;
    /**
     * Whether the pending read is a scattering one (its result is a {@code Long}); written before the read starts,
     * read by its completion (the dispatcher's hand-off orders the two). Likewise {@link #gathering}.
     */
    private boolean scattering;
    private boolean gathering;

    StreamTransfers(ProactorChannelGroup group, ChannelDeliveries deliveries) {
        this.reads = new OperationSlot(group, OperationSlot.Kind.READ, deliveries);
        this.writes = new OperationSlot(group, OperationSlot.Kind.WRITE, deliveries);
    }

    /** The channel the transfers run on; called once, before any transfer starts. */
    void runOn(AsynchChannel channel) {
        this.channel = channel;
    }

    /** The channel is about to close (see {@link #closing}). */
    void closing() {
        closing = true;
    }

    /** Whether input was shut down; later reads complete with -1 at once. */
    boolean inputShut() {
        return inputShut;
    }

    /** Input was shut down. */
    void inputShutDown() {
        inputShut = true;
    }

    /** Whether output was shut down; later writes fail with {@link ClosedChannelException}. */
    boolean outputShut() {
        return outputShut;
    }

    /** Output was shut down. */
    void outputShutDown() {
        outputShut = true;
    }

    // ---------------------------------------------------------------- starting

    /**
     * One read ({@code dst}) or scattering read ({@code dsts}), with a handler or a future, as the JDK's. The
     * caller checked the buffers (what the JDK's refuses at the call); once the direction is taken, nothing here
     * throws but the engine's start, which gives the direction back first: every other outcome is delivered.
     *
     * @throws RuntimeException the direction's pending or killed exception ({@link OperationSlot#begin})
     */
    void read(ByteBuffer dst, ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit,
              Object attachment, CompletionHandler<?, ?> handler, IoFuture<?> future) {
        boolean isScattering = dsts != null;
        reads.begin(handler, attachment, future);
        boolean space = isScattering ? hasRemaining(dsts, offset, length) : dst.hasRemaining();
        if (inputShut || !space) {
            long n = inputShut ? -1 : 0;
            reads.finishNow(isScattering ? (Object) n : (Object) (int) n, null);
            return;
        }
        if (timeout > 0 && unit == null) {
            reads.finishNow(null, noUnit());
            return;
        }
        long nanos = timeout > 0 ? unit.toNanos(timeout) : 0;
        scattering = isScattering;
        try {
            if (future != null) {
                channel.awaitNextOperation(true); // its caller may block the last thread that could poll for it
            }
            if (isScattering) {
                channel.read(dsts, offset, length, nanos, TimeUnit.NANOSECONDS, null);
            } else {
                channel.read(dst, nanos, TimeUnit.NANOSECONDS, null);
            }
        } catch (RuntimeException | Error e) {
            reads.abandon();
            throw e;
        }
    }

    /**
     * One write ({@code src}) or gathering write ({@code srcs}), with a handler or a future, as the JDK's. The
     * caller checked {@code src} and the range (what the JDK's refuses at the call); once the direction is taken,
     * nothing here throws but the engine's start, which gives the direction back first: every other outcome (a null
     * in {@code srcs} included) is delivered.
     *
     * @throws RuntimeException the direction's pending or killed exception ({@link OperationSlot#begin})
     */
    void write(ByteBuffer src, ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit,
               Object attachment, CompletionHandler<?, ?> handler, IoFuture<?> future) {
        boolean isGathering = srcs != null;
        writes.begin(handler, attachment, future);
        if (outputShut) {
            writes.finishNow(null, new ClosedChannelException());
            return;
        }
        int nullAt = isGathering ? firstNull(srcs, offset, length) : -1;
        if (nullAt >= 0) {
            // As the JDK's, which finds the null when it starts the I/O: the handler fails, nothing is written.
            writes.finishNow(null, new NullPointerException("srcs[" + nullAt + "] is null"));
            return;
        }
        if (!(isGathering ? hasRemaining(srcs, offset, length) : src.hasRemaining())) {
            writes.finishNow(isGathering ? (Object) 0L : (Object) 0, null);
            return;
        }
        if (timeout > 0 && unit == null) {
            writes.finishNow(null, noUnit());
            return;
        }
        long nanos = timeout > 0 ? unit.toNanos(timeout) : 0;
        gathering = isGathering;
        try {
            if (future != null) {
                channel.awaitNextOperation(false);
            }
            if (isGathering) {
                channel.write(srcs, offset, length, nanos, TimeUnit.NANOSECONDS, null);
            } else {
                channel.write(src, nanos, TimeUnit.NANOSECONDS, null);
            }
        } catch (RuntimeException | Error e) {
            writes.abandon();
            throw e;
        }
    }

    // ---------------------------------------------------------------- completions (demultiplexor's threads)

    /** The engine finished the pending read. */
    void onReadCompleted(OpRead op) {
        Throwable e = op.getError();
        long n = op.getBytesCompleted();
        if (closing && (e != null || n < 0)) {
            reads.finish(null, closedDuring(e));
        } else if (e != null) {
            reads.finish(null, e);
        } else {
            reads.finish(scattering ? (Object) n : (Object) (int) n, null);
        }
    }

    /**
     * The engine finished the pending write. The engine's write goes on until every byte is out, while the JDK's
     * completes at its first progress and its timeout bounds only the wait for that progress: so a write that timed
     * out after some bytes went out completes with their count (the buffers' positions moved over exactly those) and
     * writing stays allowed; only one that wrote nothing fails with {@link InterruptedByTimeoutException}, which
     * ends writing on the channel ({@link OperationSlot}).
     */
    void onWriteCompleted(OpWrite op) {
        Throwable e = op.getError();
        long n = op.getBytesCompleted();
        if (e == null || (e instanceof InterruptedByTimeoutException && n > 0)) {
            writes.finish(gathering ? (Object) n : (Object) (int) n, null);
        } else {
            writes.finish(null, closing ? closedDuring(e) : e);
        }
    }

    /** The error of an operation that ended because the channel was closed while it was pending. */
    private static Throwable closedDuring(Throwable error) {
        if (error instanceof AsynchronousCloseException) {
            return error;
        }
        AsynchronousCloseException e = new AsynchronousCloseException();
        if (error != null) {
            e.initCause(error);
        }
        return e;
    }

    // ---------------------------------------------------------------- argument checks (callers' threads)

    /** @throws IllegalArgumentException for a read-only buffer, as the JDK's read */
    static void checkWritable(ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
    }

    /** @throws IndexOutOfBoundsException for an offset and length outside {@code buffers} */
    static void checkRange(ByteBuffer[] buffers, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buffers.length - length) {
            throw new IndexOutOfBoundsException();
        }
    }

    /**
     * The failure of an operation with a timeout but no unit. The JDK's needs the unit only to arm the timer of an
     * operation that has to wait, and fails it through its handler or future then; ours fails it so before trying
     * the I/O (where the JDK's would complete an operation it can do at once), never by throwing at the call.
     */
    private static NullPointerException noUnit() {
        return new NullPointerException("unit is null and the timeout is positive");
    }

    /** The index of the first null in {@code buffers[offset .. offset+length)}, or -1. */
    private static int firstNull(ByteBuffer[] buffers, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (buffers[i] == null) {
                return i;
            }
        }
        return -1;
    }

    private static boolean hasRemaining(ByteBuffer[] buffers, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (buffers[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }
}
