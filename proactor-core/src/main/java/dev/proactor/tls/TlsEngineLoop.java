package dev.proactor.tls;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one {@link TlsChannel} and the loop that moves it on: every event (an operation started, a socket
 * read or write completed, delegated tasks done, close) updates the state under this object's lock and runs
 * {@link #progressLocked()}, which wraps and unwraps as far as it can (through its {@link TlsRecordLayer}) and
 * returns what must happen next as a set of action bits; {@link TlsChannel} carries them out without the lock
 * (socket operations may complete on the calling thread, callbacks must never run under it).
 *
 * <p>At most one socket read (into {@link #incoming()}) and one socket write (of {@link #outgoing()}) are in
 * flight; a buffer with an operation in flight is not touched. Socket reads are started only when something
 * needs input: the handshake or {@code close_notify} exchange, or a pending read with no plaintext buffered, so
 * a slow reader leaves back-pressure to TCP. A write completes when the ciphertext total sent reaches the total
 * produced when its last byte was encrypted ({@link TlsOp#sentMark}).
 *
 * <p><b>Threads and lock.</b> The package-private methods are called from any thread (the API's callers,
 * demultiplexor threads in transport callbacks, delegated-task threads) and take this object's lock; the
 * private methods, and all of {@link TlsPending} and {@link TlsRecordLayer}, run with it held.
 *
 * <p><b>Errors.</b> Misuse (an operation before the handshake was started, a second handshake or shutdown)
 * throws {@link IllegalStateException} before anything changes. Every other error (the engine's, the socket's,
 * a rejected delegated task) is kept as the channel's failure ({@link #fail}, the first one wins); the loop then
 * completes every pending operation with it, sends the engine's alert and closes the socket
 * ({@link #failAllLocked()}).
 */
final class TlsEngineLoop {

    static final Logger LOG = LoggerFactory.getLogger(TlsChannel.class);

    static final int START_READ = 1;
    static final int START_WRITE = 2;
    static final int RUN_TASKS = 4;
    static final int SHUTDOWN_SOCKET = 8;
    static final int CLOSE_SOCKET = 16;

    private final TlsChannel channel;
    private final SSLEngine engine;

    // Everything below is guarded by this.
    private final TlsPending ops;
    /** The buffers and the engine's wrap and unwrap, with what the engine reported on the way. */
    private final TlsRecordLayer records;

    private boolean handshakeStarted;
    /** The handshake completion was queued; plaintext may be given to ops.reads. */
    private boolean handshakeReported;
    private boolean shutdownStarted;

    private boolean socketReading;
    private boolean socketWriting;
    private boolean socketEof;
    private boolean taskRunning;
    /** Ciphertext bytes the socket has written so far, compared with the marks taken by {@link #records}. */
    private long sent;

    private Throwable failure;
    private boolean sendAlert;
    private boolean alertInFlight;
    private boolean closed;
    private boolean socketClosed;
    private int shutdownSocket;

    TlsEngineLoop(TlsChannel channel, SSLEngine engine, TlsDispatch dispatch) {
        this.channel = channel;
        this.engine = engine;
        this.ops = new TlsPending(channel, dispatch);
        this.records = new TlsRecordLayer(engine, ops, error -> fail(error, true));
    }

    // ---------------------------------------------------------------- events from the API

    synchronized void startConnect(Object attachment) {
        ops.handshake = ops.take(TlsOp.Kind.HANDSHAKE, null, null, 0, 0, attachment);
    }

    synchronized int handshake(Object attachment) {
        if (ops.handshake != null) {
            throw new IllegalStateException("the handshake was already started");
        }
        ops.handshake = ops.take(TlsOp.Kind.HANDSHAKE, null, null, 0, 0, attachment);
        if (!isOpenLocked()) {
            handshakeReported = true;
            return completeClosedLocked(ops.handshake);
        }
        beginHandshakeLocked();
        return progressLocked();
    }

    synchronized int read(ByteBuffer dst, Object attachment) {
        requireHandshake("read");
        TlsOp op = ops.take(TlsOp.Kind.READ, null, dst, 0, 1, attachment);
        if (!isOpenLocked()) {
            return completeClosedLocked(op);
        }
        ops.reads.add(op);
        return progressLocked();
    }

    synchronized int write(ByteBuffer[] srcs, ByteBuffer src, int offset, int length, Object attachment) {
        requireHandshake("write");
        TlsOp op = ops.take(TlsOp.Kind.WRITE, srcs, src, offset, length, attachment);
        if (!isOpenLocked() || shutdownStarted) {
            return completeClosedLocked(op);
        }
        ops.writes.add(op);
        return progressLocked();
    }

    synchronized int shutdown(Object attachment) {
        requireHandshake("shutdownOutput");
        if (shutdownStarted) {
            throw new IllegalStateException("shutdownOutput was already started");
        }
        shutdownStarted = true;
        TlsOp op = ops.take(TlsOp.Kind.SHUTDOWN, null, null, 0, 0, attachment);
        if (!isOpenLocked()) {
            return completeClosedLocked(op);
        }
        ops.writes.add(op);
        return progressLocked();
    }

    synchronized int close() {
        if (closed) {
            return 0;
        }
        closed = true;
        return progressLocked();
    }

    synchronized boolean isOpen() {
        return isOpenLocked();
    }

    synchronized void release(TlsOp op) {
        ops.release(op);
    }

    /** The buffer a socket write must send (called by the thread that got {@link #START_WRITE}). */
    synchronized ByteBuffer outgoing() {
        return records.outgoing();
    }

    /** The buffer a socket read must fill (called by the thread that got {@link #START_READ}). */
    synchronized ByteBuffer incoming() {
        return records.incoming();
    }

    // ---------------------------------------------------------------- events from the socket and the tasks

    synchronized int connectCompleted(Throwable error) {
        if (error != null) {
            fail(error, false);
        } else if (isOpenLocked()) {
            beginHandshakeLocked();
        }
        return progressLocked();
    }

    synchronized int readCompleted(Throwable error, long bytes) {
        socketReading = false;
        if (error != null) {
            fail(error, false);
        } else if (bytes < 0) {
            socketEof = true;
        } else {
            records.receivedLocked();
        }
        return progressLocked();
    }

    synchronized int writeCompleted(Throwable error, long bytes) {
        socketWriting = false;
        alertInFlight = false;
        records.sendEndedLocked();
        if (error != null) {
            fail(error, false);
        } else {
            sent += bytes;
        }
        return progressLocked();
    }

    synchronized int tasksDone(Throwable error) {
        taskRunning = false;
        if (error != null) {
            fail(error, true);
        }
        return progressLocked();
    }

    synchronized int taskFailed(RuntimeException rejected) {
        taskRunning = false;
        fail(rejected, true);
        return progressLocked();
    }

    // ---------------------------------------------------------------- the loop

    /** Moves everything as far as it goes; returns the action bits for the caller. Lock held. */
    private int progressLocked() {
        int actions = 0;
        if (isOpenLocked() && handshakeStarted) {
            try {
                boolean moved;
                do {
                    moved = false;
                    if (!taskRunning) {
                        HandshakeStatus hs = engine.getHandshakeStatus();
                        if (hs == HandshakeStatus.NEED_TASK) {
                            taskRunning = true;
                            actions |= RUN_TASKS;
                        } else {
                            // Neither touches a buffer with a socket operation in flight.
                            moved = !socketWriting && records.wrapLocked(hs);
                            moved |= !socketReading && wantsInputLocked() && records.unwrapLocked(handshakeReported);
                        }
                    }
                    moved |= completeSentLocked();
                    // Plaintext goes to reads only once the handshake's completion was queued before them.
                    moved |= handshakeReported && records.deliverLocked();
                } while (moved && failure == null);
                if (failure == null && socketEof && records.isStarved() && !records.isInboundClosed()
                        && wantsInputLocked()) {
                    truncatedLocked();
                }
            } catch (SSLException | RuntimeException e) {
                fail(e, true);
            }
        }
        if (!isOpenLocked()) {
            return actions | failAllLocked();
        }
        if (!socketWriting && records.flipOutgoingLocked()) {
            socketWriting = true;
            actions |= START_WRITE;
        }
        if (!socketReading && !socketEof && records.isStarved() && !taskRunning && wantsInputLocked()) {
            records.makeRoomToReceiveLocked();
            socketReading = true;
            actions |= START_READ;
        }
        if (shutdownSocket == 1) {
            shutdownSocket = 2;
            actions |= SHUTDOWN_SOCKET;
        }
        return actions;
    }

    /** Whether the engine or a pending read needs ciphertext from the peer. */
    private boolean wantsInputLocked() {
        return handshakeStarted && !taskRunning && records.wantsInputLocked();
    }

    /** Queues the output operations (and the handshake) whose ciphertext has all been sent. */
    private boolean completeSentLocked() {
        boolean moved = false;
        if (records.isHandshakeFinished() && !handshakeReported && records.handshakeMark() <= sent) {
            handshakeReported = true;
            ops.complete(ops.handshake);
            moved = true;
        }
        while (!ops.flushing.isEmpty() && ops.flushing.peek().sentMark <= sent) {
            TlsOp op = ops.flushing.poll();
            if (op.kind == TlsOp.Kind.SHUTDOWN && shutdownSocket == 0) {
                shutdownSocket = 1;
            }
            ops.complete(op);
            moved = true;
        }
        return moved;
    }

    /** The socket ended while input was needed and no close_notify came. */
    private void truncatedLocked() {
        try {
            engine.closeInbound();
        } catch (SSLException expected) {
            // The engine's own "closing inbound before receiving peer's close_notify": reported below.
        }
        if (!records.isHandshakeFinished()) {
            fail(new SSLHandshakeException("the peer closed the connection during the TLS handshake"), false);
        } else {
            int partial = records.partialRecordBytes();
            fail(new TlsTruncationException("the peer closed the connection without close_notify"
                    + (partial > 0 ? ", in the middle of a record (" + partial + " bytes of it received)" : "")),
                    false);
        }
    }

    // ---------------------------------------------------------------- failure and close

    /**
     * Keeps the first failure (none after {@link #close()}) for {@link #progressLocked()} to act on, with whether
     * the engine's alert should be sent. Lock held; also the record layer's callback for a failure it goes on
     * past.
     */
    private void fail(Throwable error, boolean alert) {
        if (failure == null && !closed) {
            failure = error;
            sendAlert = alert;
            LOG.debug("{}: TLS failure", channel, error);
        }
    }

    /**
     * Completes every pending operation with the failure (or, after {@link #close()}, an
     * {@link AsynchronousCloseException} each), then sends the engine's alert if it has one and closes the
     * socket once it is sent.
     */
    private int failAllLocked() {
        boolean withHandshake = ops.handshake != null && !handshakeReported;
        handshakeReported |= withHandshake;
        ops.failAll(failure, closed, withHandshake);
        if (socketClosed) {
            return 0;
        }
        if (!closed && sendAlert && !socketWriting && !taskRunning) {
            sendAlert = false;
            try {
                records.wrapAlertLocked();
            } catch (SSLException | RuntimeException e) {
                LOG.debug("{}: no TLS alert to send", channel, e);
            }
            if (records.flipOutgoingLocked()) {
                socketWriting = true;
                alertInFlight = true;
                return START_WRITE;
            }
        }
        if (alertInFlight && !closed) {
            return 0; // the socket is closed when the alert has been written
        }
        socketClosed = true;
        records.releaseLocked();
        return CLOSE_SOCKET;
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Completes an operation started on a closed or failed channel with {@link ClosedChannelException}; after a
     * failure (not a {@link #close()}) the failure is its cause, so that a handler that starts an operation right
     * after a read that completed before the failure still learns what ended the channel.
     */
    private int completeClosedLocked(TlsOp op) {
        ops.completeClosed(op, closed ? null : failure);
        return 0;
    }

    private boolean isOpenLocked() {
        return !closed && failure == null;
    }

    private void requireHandshake(String what) {
        if (ops.handshake == null) {
            throw new IllegalStateException(what + " before the handshake was started");
        }
    }

    private void beginHandshakeLocked() {
        try {
            engine.beginHandshake();
            handshakeStarted = true;
        } catch (SSLException | RuntimeException e) {
            fail(e, false);
        }
    }
}
