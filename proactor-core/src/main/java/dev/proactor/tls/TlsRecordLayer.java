package dev.proactor.tls;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;

/**
 * The record layer of one {@link TlsChannel}: the {@link SSLEngine}'s wrap and unwrap between the plaintext of
 * the pending operations ({@link TlsPending}) and the socket's ciphertext, and what the engine reported on the
 * way (the handshake finished, the peer's {@code close_notify}, more ciphertext needed). It encrypts for the
 * head of the writes (a wholly encrypted one moves to {@link TlsPending#flushing} with its
 * {@link TlsOp#sentMark}), decrypts for the reads and completes them.
 * Starting socket operations and delegated tasks, completing the handshake and the output operations once their
 * ciphertext was sent, and failing or closing the channel are left to its {@link TlsEngineLoop}.
 *
 * <p><b>Buffers.</b> Its {@link TlsBuffers}: the engine wraps and unwraps between heap buffers, the socket reads
 * and writes direct ones; all but the receive buffer are taken from the process's spares while they hold bytes.
 *
 * <p><b>Lock.</b> It has no lock of its own: the loop owns it and calls every method with the loop's lock held,
 * from whichever thread brought the event. A buffer with a socket operation in flight is not touched: the loop
 * calls {@link #wrapLocked} only while no socket write of {@link #outgoing()} is in flight and
 * {@link #unwrapLocked} only while no socket read into {@link #incoming()} is.
 *
 * <p><b>Errors.</b> The engine's {@link SSLException}s and runtime exceptions propagate to the loop, which fails
 * the channel with them (or, from {@link #wrapAlertLocked()} after a failure, logs them). Only a record that
 * fails after plaintext was read into a read's buffer is handled here: it goes to the loop's failure callback
 * and the unwrap goes on, so that the read completes with that plaintext before the channel fails
 * ({@link #unwrapIntoLocked}).
 */
final class TlsRecordLayer {

    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};

    private final SSLEngine engine;
    private final TlsPending ops;
    /** The loop's {@code fail(error, true)}: records the failure (to be acted on by the loop) and returns. */
    private final Consumer<Throwable> failChannel;

    // Everything below is guarded by the loop's lock.
    private final TlsBuffers buffers;
    private int packetSize;
    /** Ciphertext bytes wrapped for the handshake and the output operations so far (not the alert on failure). */
    private long produced;
    /** The engine reported the handshake finished; application data may be wrapped. */
    private boolean handshakeFinished;
    /** {@link #produced} when the handshake finished: its completion waits until that much was sent. */
    private long handshakeMark;
    /** The last unwrap needed more ciphertext than has been received. */
    private boolean netInStarved = true;
    /** The peer's {@code close_notify} was unwrapped: reads get end-of-stream. */
    private boolean inboundClosed;

    TlsRecordLayer(SSLEngine engine, TlsPending ops, Consumer<Throwable> failChannel) {
        this.engine = engine;
        this.ops = ops;
        this.failChannel = failChannel;
        packetSize = engine.getSession().getPacketBufferSize();
        buffers = new TlsBuffers(packetSize, engine.getSession().getApplicationBufferSize());
    }

    // ---------------------------------------------------------------- the buffers and the socket

    /** The buffer a socket write must send, once {@link #flipOutgoingLocked()} returned true. Lock held. */
    ByteBuffer outgoing() {
        return buffers.outgoing();
    }

    /** The buffer a socket read must fill, once {@link #makeRoomToReceiveLocked()} ran. Lock held. */
    ByteBuffer incoming() {
        return buffers.received();
    }

    /**
     * If ciphertext waits to be sent, flips it for the socket write the caller then starts and returns
     * {@code true}. Lock held; no socket write in flight.
     */
    boolean flipOutgoingLocked() {
        return buffers.flipOutgoing();
    }

    /** The socket write of {@link #outgoing()} ended (all sent, or failed): nothing waits to be sent. Lock held. */
    void sendEndedLocked() {
        buffers.sendEnded();
    }

    /** The channel is closed: gives back the buffers it took, see {@link TlsBuffers#release}. Lock held. */
    void releaseLocked() {
        buffers.release();
    }

    /** Makes room to receive for the socket read the caller then starts. Lock held. */
    void makeRoomToReceiveLocked() {
        buffers.makeRoomToReceive();
    }

    /** A socket read added ciphertext to {@link #incoming()}: the next unwrap may get further. Lock held. */
    void receivedLocked() {
        buffers.readEnded();
        netInStarved = false;
    }

    /** Whether the engine reported the handshake finished (application data may be wrapped). Lock held. */
    boolean isHandshakeFinished() {
        return handshakeFinished;
    }

    /** The ciphertext total that must have been sent for the handshake to complete. Lock held. */
    long handshakeMark() {
        return handshakeMark;
    }

    /** Whether the last unwrap needed more ciphertext than has been received. Lock held. */
    boolean isStarved() {
        return netInStarved;
    }

    /** Whether the peer's {@code close_notify} was unwrapped. Lock held. */
    boolean isInboundClosed() {
        return inboundClosed;
    }

    /** The bytes received of a record not yet complete (for the truncation message), 0 if none. Lock held. */
    int partialRecordBytes() {
        return buffers.partialRecordBytes();
    }

    // ---------------------------------------------------------------- wrap and unwrap

    /**
     * Whether the engine or a pending read needs ciphertext from the peer. Lock held; the loop asks only once the
     * handshake was started and while no delegated task runs.
     */
    boolean wantsInputLocked() {
        if (inboundClosed) {
            return false;
        }
        HandshakeStatus hs = engine.getHandshakeStatus();
        if (hs == HandshakeStatus.NEED_UNWRAP || hs == HandshakeStatus.NEED_UNWRAP_AGAIN) {
            return true;
        }
        return handshakeFinished && !ops.reads.isEmpty() && !buffers.hasPlaintext();
    }

    /**
     * Encrypts what the engine or the head of the writes needs into the wrap buffer. Lock held; no socket write
     * in flight.
     */
    boolean wrapLocked(HandshakeStatus hs) throws SSLException {
        if (!buffers.wrapRoomFor(packetSize)) {
            return false; // the buffer must be sent before another record fits
        }
        if (hs == HandshakeStatus.NEED_WRAP) {
            SSLEngineResult r = engine.wrap(NOTHING, buffers.toWrapInto());
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
        SSLEngineResult r = engine.wrap(w.buffers, w.offset, w.length, buffers.toWrapInto());
        w.bytes += r.bytesConsumed();
        produced += r.bytesProduced();
        if (r.getStatus() == Status.BUFFER_OVERFLOW) {
            packetSize = engine.getSession().getPacketBufferSize();
            if (buffers.wrapEmpty()) {
                buffers.wrapAtLeast(2 * packetSize); // too small for the engine's records now
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
     * Decrypts received ciphertext. A pending read with no plaintext buffered before it takes every
     * complete record straight into its buffer, as far as the buffer holds ({@link #unwrapIntoLocked}): records
     * received together complete one read, with no copy through the plaintext buffer. Lock held; the loop calls it
     * only while no socket read is in flight and the engine or a pending read needs input
     * ({@link #wantsInputLocked()}).
     *
     * @param handshakeReported whether the handshake completion was queued, so that plaintext may go to reads
     */
    boolean unwrapLocked(boolean handshakeReported) throws SSLException {
        if (!buffers.hasCiphertext()) {
            netInStarved = true;
            return false;
        }
        TlsOp reader = handshakeReported && !buffers.hasPlaintext() ? ops.reads.peek() : null;
        ByteBuffer netIn = buffers.unwrapInput();
        SSLEngineResult r;
        try {
            r = reader == null ? engine.unwrap(netIn, buffers.plaintext()) : unwrapIntoLocked(netIn, reader);
        } finally {
            buffers.unwrapDone();
        }
        boolean delivered = reader != null && reader.bytes > 0;
        if (delivered) {
            ops.reads.poll();
            ops.complete(reader);
        }
        switch (r.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                buffers.givePlaintextBackIfEmpty();
                netInStarved = true;
                packetSize = Math.max(packetSize, engine.getSession().getPacketBufferSize());
                return delivered;
            }
            case BUFFER_OVERFLOW -> {
                if (delivered) {
                    return true; // the reader's buffer is full: the next record waits for the next read
                }
                if (!buffers.hasPlaintext()) {
                    buffers.plaintextRoom(engine.getSession().getApplicationBufferSize());
                    return true;
                }
                return false; // plaintext is waiting for a read
            }
            case CLOSED -> inboundClosed = true; // the peer's close_notify
            case OK -> { }
        }
        buffers.givePlaintextBackIfEmpty(); // an unwrap of a handshake message into it, say
        handshakeStepLocked(r);
        return delivered || r.bytesConsumed() > 0 || r.bytesProduced() > 0 || inboundClosed;
    }

    /**
     * Unwraps the complete records of {@code netIn} (the unwrap buffer, flipped) into the buffer of
     * {@code reader} while they fit and no handshake message interrupts, adding the plaintext to its count. A
     * first record larger than the room the buffer has goes to the plaintext buffer instead, and from there in
     * pieces to the reads. A record that fails (a bad MAC, a decoding error) after others were read into the
     * buffer fails the channel only after that plaintext is delivered: it goes to {@link #failChannel}, the read
     * completes with the plaintext, the operations after it fail. Lock held.
     *
     * @return the result of the last unwrap that succeeded
     */
    private SSLEngineResult unwrapIntoLocked(ByteBuffer netIn, TlsOp reader) throws SSLException {
        SSLEngineResult r = null;
        do {
            try {
                r = engine.unwrap(netIn, reader.buffers, reader.offset, reader.length);
            } catch (SSLException | RuntimeException e) {
                if (reader.bytes == 0) {
                    throw e;
                }
                failChannel.accept(e);
                return r;
            }
            reader.bytes += r.bytesProduced();
        } while (r.getStatus() == Status.OK && r.bytesConsumed() > 0 && netIn.hasRemaining()
                && r.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING);
        if (r.getStatus() == Status.BUFFER_OVERFLOW && reader.bytes == 0) {
            r = engine.unwrap(netIn, buffers.plaintext());
        }
        return r;
    }

    /** Notes the end of the handshake, and how much ciphertext had been produced by then. Lock held. */
    private void handshakeStepLocked(SSLEngineResult r) {
        if (!handshakeFinished && (r.getHandshakeStatus() == HandshakeStatus.FINISHED
                || engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING)) {
            handshakeFinished = true;
            handshakeMark = produced;
        }
    }

    /**
     * Gives buffered plaintext, or end-of-stream, to pending reads. Lock held; the loop calls it only once the
     * handshake completion was queued.
     */
    boolean deliverLocked() {
        boolean moved = false;
        while (!ops.reads.isEmpty()) {
            TlsOp op = ops.reads.peek();
            if (buffers.hasPlaintext()) {
                op.bytes = buffers.moveTo(op.buffers[op.offset]);
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

    /**
     * After a failure: closes the engine's output and wraps what it has to send (its alert, if any) into
     * the wrap buffer while it fits, not counted in {@link #produced}. Lock held; no socket write in flight.
     *
     * @throws SSLException as the engine does; what was wrapped before stays in the wrap buffer
     */
    void wrapAlertLocked() throws SSLException {
        engine.closeOutbound();
        SSLEngineResult r;
        do {
            r = engine.wrap(NOTHING, buffers.toWrapInto());
        } while (r.bytesProduced() > 0 && buffers.wrapRoomFor(packetSize));
    }
}
