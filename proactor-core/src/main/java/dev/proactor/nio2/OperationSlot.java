package dev.proactor.nio2;

import dev.proactor.NotifyLevel;
import dev.proactor.OpTimer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.InterruptedByTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One direction of a NIO.2 channel (reading, writing, connecting or accepting): at most one operation of it is
 * pending at a time, as the JDK's channels allow, and its outcome is delivered to a {@link CompletionHandler} or
 * an {@link IoFuture}. The slot is reused for every operation of its direction, so the handler path allocates
 * nothing of its own.
 *
 * <p>States follow the JDK: {@link #begin} throws the direction's pending exception while an operation is
 * pending, and the JDK's exception for a killed direction ({@link Kind#killedException()}) once the direction was
 * killed (a read or write timed out, or its {@code Future} was cancelled: the channel's state is then unknown, so
 * the JDK refuses further operations of that direction).
 *
 * <p>Threads: {@link #begin} and {@link #finishNow} run on the caller's thread, {@link #finish} on the thread that
 * dispatches the engine's completion (the caller's own, inside the starting call, when the engine completed the
 * operation at once: the channels ask their {@code AsynchChannel} for that, as the JDK completes at once what it
 * can); delivery ({@link #run}) follows the group's rules
 * ({@link ProactorChannelGroup#deliver}). The slot is freed before the handler runs, so a handler may start the
 * next operation of the same direction.
 */
final class OperationSlot implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(OperationSlot.class);

    /**
     * What a slot does: the exception a second pending operation gets, and the one an operation of a killed
     * direction gets. Both are the JDK's ({@code sun.nio.ch}), class and message, as programs and logs match on them.
     */
    enum Kind {
        READ,
        WRITE,
        /** Never killed: a cancelled connect kills reading and writing instead, as the JDK's. */
        CONNECT,
        ACCEPT;

        /** The exception of an operation of a killed direction: the JDK's class and message. */
        RuntimeException killedException() {
            return switch (this) {
                case READ -> new IllegalStateException("Reading not allowed due to timeout or cancellation");
                case WRITE -> new IllegalStateException("Writing not allowed due to timeout or cancellation");
                // Unreachable (never killed), so the JDK has no message for it.
                case CONNECT -> new IllegalStateException("Connect not allowed due to cancellation");
                // A plain RuntimeException (not an IllegalStateException), with the JDK's wording.
                case ACCEPT -> new RuntimeException("Accept not allowed due cancellation");
            };
        }

        RuntimeException pendingException() {
            return switch (this) {
                case READ -> new java.nio.channels.ReadPendingException();
                case WRITE -> new java.nio.channels.WritePendingException();
                case CONNECT -> new java.nio.channels.ConnectionPendingException();
                case ACCEPT -> new java.nio.channels.AcceptPendingException();
            };
        }
    }

    private final ProactorChannelGroup group;
    private final Kind kind;
    /** The channel's undelivered operations: this slot's from {@link #begin} until its delivery returned. */
    private final ChannelDeliveries deliveries;
    /** Hands a delivery to the group's executor (see {@link ProactorChannelGroup#deliver}). */
    final Runnable onExecutor;

    // Guarded by this.
    private boolean pending;
    private boolean killed;
    private CompletionHandler<Object, Object> handler;
    private Object attachment;
    private IoFuture<Object> future;
    private Object result;
    private Throwable error;
    /** Posts a delivery to a thread of a fixed group; made on first use. */
    private OpTimer poster;

    OperationSlot(ProactorChannelGroup group, Kind kind, ChannelDeliveries deliveries) {
        this.group = group;
        this.kind = kind;
        this.deliveries = deliveries;
        this.onExecutor = () -> group.runOnExecutor(this);
    }

    /**
     * Claims the slot for one operation, with a handler (and {@code future} null) or a future.
     *
     * @throws RuntimeException the direction's {@link Kind#killedException() killed exception} if the direction was
     *                          killed, its pending exception if an operation is pending
     */
    @SuppressWarnings("unchecked")
    synchronized void begin(CompletionHandler<?, ?> handler, Object attachment, IoFuture<?> future) {
        if (killed) {
            throw kind.killedException();
        }
        if (pending) {
            throw kind.pendingException();
        }
        pending = true;
        deliveries.begin();
        this.handler = (CompletionHandler<Object, Object>) handler;
        this.attachment = attachment;
        this.future = (IoFuture<Object>) future;
    }

    /** Frees a slot whose operation could not be started (its starting call threw). */
    void abandon() {
        synchronized (this) {
            clear();
            pending = false;
        }
        deliveries.end();
    }

    /** Whether an operation is pending. */
    synchronized boolean isPending() {
        return pending;
    }

    /** Refuses further operations of this direction (a timeout, or a cancelled future). */
    synchronized void kill() {
        killed = true;
    }

    /** Whether the pending operation, if any, was started with a future (its delivery runs no user code). */
    synchronized boolean hasFuture() {
        return future != null;
    }

    /**
     * The engine finished the pending operation: records the outcome and has the group deliver it. A timeout
     * kills the direction first, as the JDK does.
     */
    void finish(Object result, Throwable error) {
        record(result, error);
        group.deliver(this);
    }

    /** The operation finished without I/O (the caller's thread: a closed channel, nothing to transfer, ...). */
    void finishNow(Object result, Throwable error) {
        record(result, error);
        group.deliver(this);
    }

    private synchronized void record(Object result, Throwable error) {
        if (error instanceof InterruptedByTimeoutException) {
            killed = true;
        }
        this.result = result;
        this.error = error;
    }

    /**
     * Delivers the recorded outcome: frees the slot, then completes the future or calls the handler. What the
     * handler throws propagates to the caller (the group decides where it goes).
     */
    @Override
    public void run() {
        CompletionHandler<Object, Object> h;
        Object a;
        IoFuture<Object> f;
        Object r;
        Throwable e;
        synchronized (this) {
            h = handler;
            a = attachment;
            f = future;
            r = result;
            e = error;
            clear();
            pending = false;
        }
        try {
            if (f != null) {
                if (!f.complete(r, e) && r instanceof Closeable resource) {
                    closeUnclaimed(resource);
                }
            } else if (e == null) {
                h.completed(r, a);
            } else {
                h.failed(e, a);
            }
        } finally {
            if (f == null) {
                Thread.interrupted(); // as the JDK: an interrupt a handler leaves behind is not the next one's
            }
            deliveries.end();
        }
    }

    /**
     * Closes what an operation made for a future that was cancelled meanwhile (an accepted channel): the JDK's
     * cancel does not stop the accept, and the connection it takes is closed rather than leaked.
     */
    private static void closeUnclaimed(Closeable resource) {
        try {
            resource.close();
        } catch (IOException closeFailure) {
            // nobody asked for it any more: a failed close has nobody to report to but the log
            LOG.debug("closing {} made for a cancelled future failed", resource, closeFailure);
        }
    }

    private void clear() {
        handler = null;
        attachment = null;
        future = null;
        result = null;
        error = null;
    }

    /**
     * Posts this slot's delivery to a pool thread of the group's demultiplexor.
     *
     * @throws IllegalStateException if the demultiplexor is closed
     */
    void post() {
        OpTimer t;
        synchronized (this) {
            t = poster;
            if (t == null) {
                t = poster = group.demultiplexor().newTimer(new PostedRun(() -> group.runDirect(this)));
            }
        }
        // STRONG: in a group whose only thread leads (blocked in the engine's wait) a follower wake-up finds nobody.
        group.demultiplexor().post(t, NotifyLevel.STRONG);
    }

    @Override
    public synchronized String toString() {
        return kind + (pending ? " pending" : "") + (killed ? " killed" : "");
    }
}
