package dev.proactor.tls;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one {@link TlsChannel} and the loop that moves it on: every event (an operation started, a socket
 * read or write completed, delegated tasks done, close) updates the state under this object's lock and runs
 * {@link #progressLocked()}, which wraps and unwraps as far as it can and returns what must happen next as a set
 * of action bits; {@link TlsChannel} carries them out without the lock (socket operations may complete on the
 * calling thread, callbacks must never run under it).
 *
 * <p>At most one socket read (into {@link #netIn}) and one socket write (of {@link #netOut}) are in flight; a
 * buffer with an operation in flight is not touched. Socket reads are started only when something needs input:
 * the handshake or {@code close_notify} exchange, or a pending read with no plaintext buffered, so a slow
 * reader leaves back-pressure to TCP. A write completes when the ciphertext total sent reaches the total
 * produced when its last byte was encrypted ({@link TlsOp#sentMark}).
 */
final class TlsEngineLoop {

    static final Logger LOG = LoggerFactory.getLogger(TlsChannel.class);

    static final int START_READ = 1;
    static final int START_WRITE = 2;
    static final int RUN_TASKS = 4;
    static final int SHUTDOWN_SOCKET = 8;
    static final int CLOSE_SOCKET = 16;

    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};

    private final TlsChannel channel;
    private final SSLEngine engine;

    // Everything below is guarded by this.
    /** Ciphertext received and not yet unwrapped (write mode); owned by the socket while a read is in flight. */
    private ByteBuffer netIn;
    /** Plaintext unwrapped and not yet given to a read (write mode). */
    private ByteBuffer appIn;
    /** Ciphertext to send (write mode; flipped while a socket write of it is in flight). */
    private ByteBuffer netOut;
    private int packetSize;

    private final TlsPending ops;

    private boolean connecting;
    private boolean handshakeStarted;
    /** The engine reported the handshake finished; application data may be wrapped. */
    private boolean handshakeFinished;
    /** The handshake completion was queued; plaintext may be given to ops.reads. */
    private boolean handshakeReported;
    private long handshakeMark;
    private boolean shutdownStarted;

    private boolean socketReading;
    private boolean socketWriting;
    /** The last unwrap needed more ciphertext than {@link #netIn} holds. */
    private boolean netInStarved = true;
    private boolean socketEof;
    private boolean inboundClosed;
    private boolean taskRunning;
    private long produced;
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
        packetSize = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocateDirect(packetSize);
        netOut = ByteBuffer.allocateDirect(2 * packetSize);
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    }

    // ---------------------------------------------------------------- events from the API

    synchronized void startConnect(Object attachment) {
        ops.handshake = ops.take(TlsOp.Kind.HANDSHAKE, null, null, 0, 0, attachment);
        connecting = true;
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
        return netOut;
    }

    /** The buffer a socket read must fill (called by the thread that got {@link #START_READ}). */
    synchronized ByteBuffer incoming() {
        return netIn;
    }

    // ---------------------------------------------------------------- events from the socket and the tasks

    synchronized int connectCompleted(Throwable error) {
        connecting = false;
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
            netInStarved = false;
        }
        return progressLocked();
    }

    synchronized int writeCompleted(Throwable error, long bytes) {
        socketWriting = false;
        alertInFlight = false;
        netOut.clear();
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
                            moved = wrapLocked(hs);
                            moved |= unwrapLocked();
                        }
                    }
                    moved |= completeSentLocked();
                    moved |= deliverLocked();
                } while (moved && failure == null);
                if (failure == null && socketEof && netInStarved && !inboundClosed && wantsInputLocked()) {
                    truncatedLocked();
                }
            } catch (SSLException | RuntimeException e) {
                fail(e, true);
            }
        }
        if (!isOpenLocked()) {
            return actions | failAllLocked();
        }
        if (!socketWriting && netOut.position() > 0) {
            netOut.flip();
            socketWriting = true;
            actions |= START_WRITE;
        }
        if (!socketReading && !socketEof && netInStarved && !taskRunning && wantsInputLocked()) {
            if (!netIn.hasRemaining()) {
                netIn = grow(netIn, netIn.capacity() * 2);
            }
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
        if (inboundClosed || !handshakeStarted || taskRunning) {
            return false;
        }
        HandshakeStatus hs = engine.getHandshakeStatus();
        if (hs == HandshakeStatus.NEED_UNWRAP || hs == HandshakeStatus.NEED_UNWRAP_AGAIN) {
            return true;
        }
        return handshakeFinished && !ops.reads.isEmpty() && appIn.position() == 0;
    }

    /** Encrypts what the engine or the head of the writes needs into {@link #netOut}. */
    private boolean wrapLocked(HandshakeStatus hs) throws SSLException {
        if (socketWriting || netOut.remaining() < packetSize) {
            return false; // the buffer is being sent, or must be sent before another record fits
        }
        if (hs == HandshakeStatus.NEED_WRAP) {
            SSLEngineResult r = engine.wrap(NOTHING, netOut);
            produced += r.bytesProduced();
            handshakeStepLocked(r);
            return r.bytesProduced() > 0 || r.getHandshakeStatus() != hs;
        }
        TlsOp w = handshakeFinished ? ops.writes.peek() : null;
        if (w == null) {
            return false;
        }
        if (w.kind == TlsOp.Kind.SHUTDOWN) {
            if (!engine.isOutboundDone()) {
                engine.closeOutbound(); // the next round wraps close_notify (NEED_WRAP)
                return true;
            }
            ops.writes.poll();
            w.sentMark = produced;
            ops.flushing.add(w);
            return true;
        }
        if (engine.isOutboundDone()) {
            ops.writes.poll(); // the peer's close_notify closed our side too (TLS 1.2)
            w.error = new ClosedChannelException();
            ops.complete(w);
            return true;
        }
        SSLEngineResult r = engine.wrap(w.buffers, w.offset, w.length, netOut);
        w.bytes += r.bytesConsumed();
        produced += r.bytesProduced();
        if (r.getStatus() == Status.BUFFER_OVERFLOW) {
            packetSize = engine.getSession().getPacketBufferSize();
            if (netOut.position() == 0) {
                netOut = grow(netOut, 2 * packetSize);
                return true;
            }
            return false;
        }
        handshakeStepLocked(r);
        if (!w.hasRemaining()) {
            ops.writes.poll();
            w.sentMark = produced;
            ops.flushing.add(w);
            return true;
        }
        return r.bytesConsumed() > 0 || r.bytesProduced() > 0;
    }

    /**
     * Decrypts ciphertext of {@link #netIn} when the engine or a pending read needs it. A pending read with no
     * plaintext buffered before it takes every complete record straight into its buffer, as far as the buffer
     * holds ({@link #unwrapIntoLocked}): records received together complete one read, with no copy through
     * {@link #appIn}.
     */
    private boolean unwrapLocked() throws SSLException {
        if (socketReading || !wantsInputLocked()) {
            return false;
        }
        if (netIn.position() == 0) {
            netInStarved = true;
            return false;
        }
        TlsOp reader = handshakeReported && appIn.position() == 0 ? ops.reads.peek() : null;
        netIn.flip();
        SSLEngineResult r;
        try {
            r = reader == null ? engine.unwrap(netIn, appIn) : unwrapIntoLocked(reader);
        } finally {
            netIn.compact();
        }
        boolean delivered = reader != null && reader.bytes > 0;
        if (delivered) {
            ops.reads.poll();
            ops.complete(reader);
        }
        switch (r.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                netInStarved = true;
                packetSize = Math.max(packetSize, engine.getSession().getPacketBufferSize());
                if (netIn.capacity() < packetSize) {
                    netIn = grow(netIn, packetSize);
                }
                return delivered;
            }
            case BUFFER_OVERFLOW -> {
                if (delivered) {
                    return true; // the reader's buffer is full: the next record waits for the next read
                }
                if (appIn.position() == 0) {
                    appIn = grow(appIn, engine.getSession().getApplicationBufferSize());
                    return true;
                }
                return false; // plaintext is waiting for a read
            }
            case CLOSED -> inboundClosed = true; // the peer's close_notify
            case OK -> { }
        }
        handshakeStepLocked(r);
        return delivered || r.bytesConsumed() > 0 || r.bytesProduced() > 0 || inboundClosed;
    }

    /**
     * Unwraps the complete records of {@link #netIn} (flipped) into the buffer of {@code reader} while they fit
     * and no handshake message interrupts, adding the plaintext to its count. A first record larger than the
     * room the buffer has goes to {@link #appIn} instead, and from there in pieces to the reads. A record that
     * fails (a bad MAC, a decoding error) after others were read into the buffer fails the channel only after
     * that plaintext is delivered: the read completes with it, the operations after it fail.
     *
     * @return the result of the last unwrap that succeeded
     */
    private SSLEngineResult unwrapIntoLocked(TlsOp reader) throws SSLException {
        SSLEngineResult r = null;
        do {
            try {
                r = engine.unwrap(netIn, reader.buffers, reader.offset, reader.length);
            } catch (SSLException | RuntimeException e) {
                if (reader.bytes == 0) {
                    throw e;
                }
                fail(e, true);
                return r;
            }
            reader.bytes += r.bytesProduced();
        } while (r.getStatus() == Status.OK && r.bytesConsumed() > 0 && netIn.hasRemaining()
                && r.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING);
        if (r.getStatus() == Status.BUFFER_OVERFLOW && reader.bytes == 0) {
            r = engine.unwrap(netIn, appIn);
        }
        return r;
    }

    private void handshakeStepLocked(SSLEngineResult r) {
        if (!handshakeFinished && (r.getHandshakeStatus() == HandshakeStatus.FINISHED
                || engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING)) {
            handshakeFinished = true;
            handshakeMark = produced;
        }
    }

    /** Queues the output operations (and the handshake) whose ciphertext has all been sent. */
    private boolean completeSentLocked() {
        boolean moved = false;
        if (handshakeFinished && !handshakeReported && handshakeMark <= sent) {
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

    /** Gives buffered plaintext, or end-of-stream, to pending reads (after the handshake completion). */
    private boolean deliverLocked() {
        boolean moved = false;
        while (handshakeReported && !ops.reads.isEmpty()) {
            TlsOp op = ops.reads.peek();
            if (appIn.position() > 0) {
                ByteBuffer dst = op.buffers[op.offset];
                appIn.flip();
                int n = Math.min(appIn.remaining(), dst.remaining());
                int limit = appIn.limit();
                appIn.limit(appIn.position() + n);
                dst.put(appIn);
                appIn.limit(limit);
                appIn.compact();
                op.bytes = n;
            } else if (inboundClosed) {
                op.bytes = -1;
            } else {
                break;
            }
            ops.reads.poll();
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
        if (!handshakeFinished) {
            fail(new SSLHandshakeException("the peer closed the connection during the TLS handshake"), false);
        } else {
            fail(new TlsTruncationException("the peer closed the connection without close_notify"
                    + (netIn.position() > 0 ? ", in the middle of a record (" + netIn.position()
                    + " bytes of it received)" : "")), false);
        }
    }

    // ---------------------------------------------------------------- failure and close

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
                engine.closeOutbound();
                SSLEngineResult r;
                do {
                    r = engine.wrap(NOTHING, netOut);
                } while (r.bytesProduced() > 0 && netOut.remaining() >= packetSize);
            } catch (SSLException | RuntimeException e) {
                LOG.debug("{}: no TLS alert to send", channel, e);
            }
            if (netOut.position() > 0) {
                netOut.flip();
                socketWriting = true;
                alertInFlight = true;
                return START_WRITE;
            }
        }
        if (alertInFlight && !closed) {
            return 0; // the socket is closed when the alert has been written
        }
        socketClosed = true;
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

    private static ByteBuffer grow(ByteBuffer b, int capacity) {
        if (capacity <= b.capacity()) {
            return b;
        }
        ByteBuffer bigger = b.isDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        b.flip();
        bigger.put(b);
        return bigger;
    }
}
