package dev.proactor.tls;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The operations of one {@link TlsChannel} that have not completed yet, in start order, and the recycled ones.
 * It has no lock of its own: every method runs under the {@link TlsEngineLoop}'s lock. An operation leaves
 * these queues exactly once, into the {@link TlsDispatch}, which is what makes every operation complete once.
 */
final class TlsPending {

    /** Reads waiting for plaintext. */
    final ArrayDeque<TlsOp> reads = new ArrayDeque<>();
    /** Writes and the shutdown, not yet wholly encrypted. */
    final ArrayDeque<TlsOp> writes = new ArrayDeque<>();
    /** Output operations wholly encrypted, waiting for their ciphertext to be sent. */
    final ArrayDeque<TlsOp> flushing = new ArrayDeque<>();
    /** The handshake operation once started (also after it completed: it marks the handshake as started). */
    TlsOp handshake;

    private final TlsChannel channel;
    private final TlsDispatch dispatch;
    /** Recycled operations, so that the steady state allocates none. */
    private TlsOp free;

    TlsPending(TlsChannel channel, TlsDispatch dispatch) {
        this.channel = channel;
        this.dispatch = dispatch;
    }

    /** A free operation prepared for a new use: with {@code srcs} (gathering write) or {@code one} buffer. */
    TlsOp take(TlsOp.Kind kind, ByteBuffer[] srcs, ByteBuffer one, int offset, int length, Object att) {
        TlsOp op = free;
        if (op != null) {
            free = op.nextFree;
            op.nextFree = null;
        } else {
            op = new TlsOp(channel);
        }
        if (srcs != null) {
            op.prepare(kind, srcs, offset, length, att);
        } else {
            op.prepare(kind, one, att);
        }
        return op;
    }

    /** Takes an operation back after its callback. */
    void release(TlsOp op) {
        op.recycle();
        op.nextFree = free;
        free = op;
    }

    /** Hands a finished operation (already out of the queues) to its callback. */
    void complete(TlsOp op) {
        dispatch.add(op);
    }

    /** Completes an operation started on a closed channel. */
    void completeClosed(TlsOp op, Throwable cause) {
        ClosedChannelException error = new ClosedChannelException();
        if (cause != null) {
            error.initCause(cause);
        }
        op.error = error;
        dispatch.add(op);
    }

    /**
     * Completes the handshake (when {@code withHandshake}) and every queued operation, in start order per
     * direction, with {@code failure}, or, when {@code closed}, with an {@link AsynchronousCloseException} each.
     */
    void failAll(Throwable failure, boolean closed, boolean withHandshake) {
        if (withHandshake) {
            fail(handshake, failure, closed);
        }
        failQueued(reads, failure, closed);
        failQueued(flushing, failure, closed); // started before those still in writes
        failQueued(writes, failure, closed);
    }

    private void failQueued(ArrayDeque<TlsOp> queue, Throwable failure, boolean closed) {
        for (TlsOp op = queue.poll(); op != null; op = queue.poll()) {
            fail(op, failure, closed);
        }
    }

    private void fail(TlsOp op, Throwable failure, boolean closed) {
        op.error = closed ? new AsynchronousCloseException() : failure;
        dispatch.add(op);
    }
}
