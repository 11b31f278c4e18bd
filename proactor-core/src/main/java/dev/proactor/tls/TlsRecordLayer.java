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
 * the pending operations ({@link TlsPending}) and the socket's ciphertext, with the three buffers and their
 * growth, and what the engine reported on the way (the handshake finished, the peer's {@code close_notify}, more
 * ciphertext needed). It encrypts for the head of the writes (a wholly encrypted one moves to
 * {@link TlsPending#flushing} with its {@link TlsOp#sentMark}), decrypts for the reads and completes them.
 * Starting socket operations and delegated tasks, completing the handshake and the output operations once their
 * ciphertext was sent, and failing or closing the channel are left to its {@link TlsEngineLoop}.
 *
 * <p><b>Buffers.</b> The receive buffer is the channel's own: a socket read into it is in flight whenever the
 * channel waits for its peer, idle or not. The send buffer and the plaintext buffer are {@link SpareBuffers}, taken
 * when the engine writes into them and given back as soon as they are empty again: the send buffer once the socket
 * wrote it ({@link #sendEndedLocked()}), the plaintext buffer once reads took all of it. An idle connection so keeps
 * one packet's worth of memory, and busy connections share a few warm buffers instead of each using cold ones of
 * its own. {@link #releaseLocked(boolean)} gives back what a closed channel still holds.
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
    /**
     * {@link #appIn} while no plaintext is buffered: holds nothing, so an unwrap of application data into it
     * overflows and takes a spare buffer. Never written (it has no room), shared by every channel.
     */
    private static final ByteBuffer NO_PLAINTEXT = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final TlsPending ops;
    /** The loop's {@code fail(error, true)}: records the failure (to be acted on by the loop) and returns. */
    private final Consumer<Throwable> failChannel;

    // Everything below is guarded by the loop's lock.
    /** Ciphertext received and not yet unwrapped (write mode); owned by the socket while a read is in flight. */
    private ByteBuffer netIn;
    /** Plaintext unwrapped and not yet given to a read (write mode); {@link #NO_PLAINTEXT} while there is none. */
    private ByteBuffer appIn = NO_PLAINTEXT;
    /** Ciphertext to send (write mode; flipped while a socket write of it is in flight); null while there is none. */
    private ByteBuffer netOut;
    private final SpareBuffers sendSpares;
    private final SpareBuffers plaintextSpares;
    private int packetSize;
    /** Ciphertext bytes wrapped for the handshake and the output operations so far (not the alert on failure). */
    private long produced;
    /** The engine reported the handshake finished; application data may be wrapped. */
    private boolean handshakeFinished;
    /** {@link #produced} when the handshake finished: its completion waits until that much was sent. */
    private long handshakeMark;
    /** The last unwrap needed more ciphertext than {@link #netIn} holds. */
    private boolean netInStarved = true;
    /** The peer's {@code close_notify} was unwrapped: reads get end-of-stream. */
    private boolean inboundClosed;

    TlsRecordLayer(SSLEngine engine, TlsPending ops, Consumer<Throwable> failChannel) {
        this.engine = engine;
        this.ops = ops;
        this.failChannel = failChannel;
        packetSize = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocateDirect(packetSize);
        sendSpares = SpareBuffers.of(2 * packetSize, true);
        plaintextSpares = SpareBuffers.of(engine.getSession().getApplicationBufferSize(), false);
    }

    // ---------------------------------------------------------------- the buffers and the socket

    /** The buffer a socket write must send, once {@link #flipOutgoingLocked()} returned true. Lock held. */
    ByteBuffer outgoing() {
        return netOut;
    }

    /** The buffer a socket read must fill, once {@link #makeRoomToReceiveLocked()} ran. Lock held. */
    ByteBuffer incoming() {
        return netIn;
    }

    /**
     * If ciphertext waits in {@link #netOut}, flips it for the socket write the caller then starts and returns
     * {@code true}. Lock held; no socket write in flight.
     */
    boolean flipOutgoingLocked() {
        if (netOut == null) {
            return false;
        }
        if (netOut.position() == 0) {
            giveBackSendBuffer(); // taken for a wrap that produced nothing
            return false;
        }
        netOut.flip();
        return true;
    }

    /**
     * The socket write of {@link #netOut} ended (all sent, or failed): the buffer is empty and goes back to the
     * spares. Lock held.
     */
    void sendEndedLocked() {
        if (netOut != null) {
            giveBackSendBuffer();
        }
    }

    /**
     * The channel is closed: gives back the plaintext buffer (no read will take it) and, unless a socket write
     * of it is still in flight ({@link #sendEndedLocked()} gives it back then), the send buffer with what was not
     * sent. Lock held.
     */
    void releaseLocked(boolean writing) {
        if (!writing && netOut != null) {
            giveBackSendBuffer();
        }
        if (appIn != NO_PLAINTEXT) {
            plaintextSpares.give(appIn);
            appIn = NO_PLAINTEXT;
        }
    }

    /** The send buffer, taken from the spares if the channel holds none. Lock held; no socket write in flight. */
    private ByteBuffer sendBuffer() {
        if (netOut == null) {
            netOut = sendSpares.take();
        }
        return netOut;
    }

    private void giveBackSendBuffer() {
        sendSpares.give(netOut);
        netOut = null;
    }

    /** Makes room in {@link #netIn} (doubling it when full) for the socket read the caller then starts. Lock held. */
    void makeRoomToReceiveLocked() {
        if (!netIn.hasRemaining()) {
            netIn = grow(netIn, netIn.capacity() * 2);
        }
    }

    /** A socket read added ciphertext to {@link #netIn}: the next unwrap may get further. Lock held. */
    void receivedLocked() {
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
        return netIn.position();
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
        return handshakeFinished && !ops.reads.isEmpty() && appIn.position() == 0;
    }

    /**
     * Encrypts what the engine or the head of the writes needs into {@link #netOut}. Lock held; no socket write
     * in flight.
     */
    boolean wrapLocked(HandshakeStatus hs) throws SSLException {
        if (netOut != null && netOut.remaining() < packetSize) {
            return false; // the buffer must be sent before another record fits
        }
        if (hs == HandshakeStatus.NEED_WRAP) {
            SSLEngineResult r = engine.wrap(NOTHING, sendBuffer());
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
        SSLEngineResult r = engine.wrap(w.buffers, w.offset, w.length, sendBuffer());
        w.bytes += r.bytesConsumed();
        produced += r.bytesProduced();
        if (r.getStatus() == Status.BUFFER_OVERFLOW) {
            packetSize = engine.getSession().getPacketBufferSize();
            if (netOut.position() == 0) {
                giveBackSendBuffer(); // too small for the engine's records now: a larger one of its own
                netOut = ByteBuffer.allocateDirect(2 * packetSize);
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
     * Decrypts ciphertext of {@link #netIn}. A pending read with no plaintext buffered before it takes every
     * complete record straight into its buffer, as far as the buffer holds ({@link #unwrapIntoLocked}): records
     * received together complete one read, with no copy through {@link #appIn}. Lock held; the loop calls it
     * only while no socket read is in flight and the engine or a pending read needs input
     * ({@link #wantsInputLocked()}).
     *
     * @param handshakeReported whether the handshake completion was queued, so that plaintext may go to reads
     */
    boolean unwrapLocked(boolean handshakeReported) throws SSLException {
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
                giveBackPlaintextBufferIfEmpty();
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
                    takePlaintextBuffer(engine.getSession().getApplicationBufferSize());
                    return true;
                }
                return false; // plaintext is waiting for a read
            }
            case CLOSED -> inboundClosed = true; // the peer's close_notify
            case OK -> { }
        }
        giveBackPlaintextBufferIfEmpty(); // an unwrap of a handshake message into it, say
        handshakeStepLocked(r);
        return delivered || r.bytesConsumed() > 0 || r.bytesProduced() > 0 || inboundClosed;
    }

    /**
     * Unwraps the complete records of {@link #netIn} (flipped) into the buffer of {@code reader} while they fit
     * and no handshake message interrupts, adding the plaintext to its count. A first record larger than the
     * room the buffer has goes to {@link #appIn} instead, and from there in pieces to the reads. A record that
     * fails (a bad MAC, a decoding error) after others were read into the buffer fails the channel only after
     * that plaintext is delivered: it goes to {@link #failChannel}, the read completes with the plaintext, the
     * operations after it fail. Lock held.
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
                failChannel.accept(e);
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
            if (appIn.position() > 0) {
                ByteBuffer dst = op.buffers[op.offset];
                appIn.flip();
                int n = Math.min(appIn.remaining(), dst.remaining());
                int limit = appIn.limit();
                appIn.limit(appIn.position() + n);
                dst.put(appIn);
                appIn.limit(limit);
                appIn.compact();
                giveBackPlaintextBufferIfEmpty();
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

    /**
     * After a failure: closes the engine's output and wraps what it has to send (its alert, if any) into
     * {@link #netOut} while it fits, not counted in {@link #produced}. Lock held; no socket write in flight.
     *
     * @throws SSLException as the engine does; what was wrapped before stays in {@link #netOut}
     */
    void wrapAlertLocked() throws SSLException {
        engine.closeOutbound();
        SSLEngineResult r;
        do {
            r = engine.wrap(NOTHING, sendBuffer());
        } while (r.bytesProduced() > 0 && netOut.remaining() >= packetSize);
    }

    /**
     * Gives {@link #appIn}, empty, room for {@code capacity} bytes of plaintext: a spare buffer, or a larger one of
     * its own if the engine's plaintext outgrew the spares. Lock held.
     */
    private void takePlaintextBuffer(int capacity) {
        if (appIn == NO_PLAINTEXT && capacity <= plaintextSpares.capacity()) {
            appIn = plaintextSpares.take();
        } else if (capacity > appIn.capacity()) {
            if (appIn != NO_PLAINTEXT) {
                plaintextSpares.give(appIn);
            }
            appIn = ByteBuffer.allocate(capacity);
        }
    }

    private void giveBackPlaintextBufferIfEmpty() {
        if (appIn != NO_PLAINTEXT && appIn.position() == 0) {
            plaintextSpares.give(appIn);
            appIn = NO_PLAINTEXT;
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
