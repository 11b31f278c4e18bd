package dev.proactor;

/**
 * The service's side of the proactor: callbacks for completed operations.
 *
 * <p>Callbacks run on a demultiplexor thread (a pool thread or a thread inside
 * {@link Demultiplexor#handleEvents}). For one channel, completions of one direction (input: read, accept,
 * receive, file read; output: write, connect, send, file write, transmit) are dispatched in the order the
 * operations were started and never concurrently; an input and an output completion of the same channel may
 * run at the same time. A callback may start further operations; an operation of the same direction started
 * inside a callback begins after the callback returns.
 *
 * <p>The operation object passed in is owned by the framework and reused after the callback returns: read what
 * you need inside the callback, do not keep the reference.
 *
 * <p>If a callback throws, the error is logged, the channel is closed (its pending operations complete with an
 * error) and the thread goes on serving other channels.
 *
 * <p>A handler implements the callbacks of the operations it starts and no others: an acceptor only
 * {@link #onAcceptCompleted}, a stream handler {@link #onReadCompleted} and {@link #onWriteCompleted}. Every
 * callback has a default for a completion the handler does not expect: it throws
 * {@link UnsupportedOperationException} naming the handler's class and the callback, so the completion is handled
 * as any callback that throws, never dropped silently. The error is logged (ERROR, with the channel and the
 * operation kind) and the channel is closed: its other pending operations complete with
 * {@link java.nio.channels.AsynchronousCloseException}, an accepted connection not adopted is closed, the bytes
 * of a read stay in the buffer the caller passed. A timer or posted completion has no channel: its default is
 * only logged.
 */
public interface AsynchHandler {

    /**
     * A read completed: bytes were read ({@code getBytesCompleted() > 0}), end-of-stream (of a socket, or the
     * position was at or after the end of a file), or an error. File reads have kind
     * {@link dev.proactor.spi.OpKind#READ_FILE}. The default throws (see the class comment).
     */
    default void onReadCompleted(OpRead op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onReadCompleted");
    }

    /**
     * A write completed: all requested bytes were written, or an error (with the bytes written before it). File
     * writes have kind {@link dev.proactor.spi.OpKind#WRITE_FILE}. The default throws (see the class comment).
     */
    default void onWriteCompleted(OpWrite op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onWriteCompleted");
    }

    /**
     * An accept completed: adopt the connection with {@link OpAccept#adopt(AsynchHandler)}, or it is closed. The
     * default throws (see the class comment).
     */
    default void onAcceptCompleted(OpAccept op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onAcceptCompleted");
    }

    /** A connect completed, successfully or with an error. The default throws (see the class comment). */
    default void onConnectCompleted(OpConnect op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onConnectCompleted");
    }

    /**
     * A datagram was received (possibly truncated to the buffer: see {@link OpReceive}), or an error. The default
     * throws (see the class comment).
     */
    default void onReceiveCompleted(OpReceive op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onReceiveCompleted");
    }

    /** A datagram was sent whole, or an error. The default throws (see the class comment). */
    default void onSendCompleted(OpSend op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onSendCompleted");
    }

    /**
     * A file transmission completed: header, file region and trailer were all sent, or an error. The default
     * throws (see the class comment).
     */
    default void onTransmitCompleted(OpTransmit op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onTransmitCompleted");
    }

    /**
     * A timer expired or a posted completion is dispatched. The default throws, which is logged (there is no
     * channel to close).
     */
    default void onTimerCompleted(OpTimer op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onTimerCompleted");
    }
}
