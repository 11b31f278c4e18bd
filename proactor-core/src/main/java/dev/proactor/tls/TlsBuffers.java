package dev.proactor.tls;

import java.nio.ByteBuffer;

/**
 * The three buffers of one {@link TlsChannel} and who holds them: ciphertext received and not yet decrypted,
 * ciphertext to send, and plaintext a read could not take yet.
 *
 * <ul>
 *   <li>The <b>receive buffer</b> is the channel's own (direct, one packet, doubled while a record does not fit): a
 *       socket read into it is in flight whenever the channel waits for its peer, idle or not.
 *   <li>The <b>send buffer</b> (direct, two packets) is a {@link SpareBuffers spare} taken when the engine first
 *       encrypts into it and given back once the socket wrote it ({@link #sendEnded()}).
 *   <li>The <b>plaintext buffer</b> (heap) is a spare taken when a record is larger than the room the reader's
 *       buffer has, and given back as soon as reads took all of it; otherwise records are decrypted straight into
 *       the readers' buffers.
 * </ul>
 *
 * An idle connection so keeps one packet's worth of memory, and busy connections share a few warm buffers
 * instead of each writing into cold ones of its own. All buffers are in write mode except the send buffer while a
 * socket write of it is in flight (flipped).
 *
 * <p><b>Lock.</b> None of its own: its {@link TlsRecordLayer} and {@link TlsEngineLoop} call it with the loop's lock
 * held. A buffer with a socket operation in flight is not touched, and the send buffer is not given back before
 * the socket write of it ended.
 */
final class TlsBuffers {

    /**
     * {@link #plaintext} while no plaintext is buffered: holds nothing, so an unwrap of application data into it
     * overflows and takes a spare. Never written (it has no room), shared by every channel.
     */
    private static final ByteBuffer NO_PLAINTEXT = ByteBuffer.allocate(0);

    private final SpareBuffers sendSpares;
    private final SpareBuffers plaintextSpares;
    /** Ciphertext received and not yet unwrapped; owned by the socket while a read is in flight. */
    private ByteBuffer received;
    /** Ciphertext to send; null while there is none. */
    private ByteBuffer toSend;
    /** Plaintext unwrapped and not yet given to a read; {@link #NO_PLAINTEXT} while there is none. */
    private ByteBuffer plaintext = NO_PLAINTEXT;

    TlsBuffers(int packetSize, int applicationBufferSize) {
        received = ByteBuffer.allocateDirect(packetSize);
        sendSpares = SpareBuffers.of(2 * packetSize, true);
        plaintextSpares = SpareBuffers.of(applicationBufferSize, false);
    }

    // ---------------------------------------------------------------- receiving

    /** The receive buffer: a socket read fills it, unwraps take from it. */
    ByteBuffer received() {
        return received;
    }

    /** Makes room in the receive buffer (doubling it when full) for the socket read the caller then starts. */
    void makeRoomToReceive() {
        if (!received.hasRemaining()) {
            received = grow(received, received.capacity() * 2);
        }
    }

    /** Grows the receive buffer to hold a record of {@code capacity} bytes, keeping what it holds. */
    void receiveAtLeast(int capacity) {
        if (received.capacity() < capacity) {
            received = grow(received, capacity);
        }
    }

    // ---------------------------------------------------------------- sending

    /** The send buffer, taken from the spares if the channel holds none. No socket write in flight. */
    ByteBuffer toSend() {
        if (toSend == null) {
            toSend = sendSpares.take();
        }
        return toSend;
    }

    /** Whether a record of {@code packetSize} bytes fits in the send buffer (there being none counts as room). */
    boolean sendRoomFor(int packetSize) {
        return toSend == null || toSend.remaining() >= packetSize;
    }

    /** Whether the send buffer holds no ciphertext yet (there being none counts as empty). */
    boolean sendEmpty() {
        return toSend == null || toSend.position() == 0;
    }

    /** Replaces the empty send buffer with a larger one of the channel's own (the engine's records grew). */
    void sendAtLeast(int capacity) {
        giveBackSendBuffer();
        toSend = ByteBuffer.allocateDirect(capacity);
    }

    /**
     * If ciphertext waits to be sent, flips the send buffer for the socket write the caller then starts
     * ({@link #outgoing()}) and returns {@code true}; else gives back a send buffer taken for a wrap that produced
     * nothing. No socket write in flight.
     */
    boolean flipOutgoing() {
        if (toSend == null) {
            return false;
        }
        if (toSend.position() == 0) {
            giveBackSendBuffer();
            return false;
        }
        toSend.flip();
        return true;
    }

    /** The buffer a socket write must send, once {@link #flipOutgoing()} returned true. */
    ByteBuffer outgoing() {
        return toSend;
    }

    /** The socket write of the send buffer ended (all sent, or failed): it goes back to the spares. */
    void sendEnded() {
        if (toSend != null) {
            giveBackSendBuffer();
        }
    }

    private void giveBackSendBuffer() {
        sendSpares.give(toSend);
        toSend = null;
    }

    // ---------------------------------------------------------------- plaintext

    /** The plaintext buffer, to unwrap into (it has no room until {@link #plaintextRoom(int)} gave it some). */
    ByteBuffer plaintext() {
        return plaintext;
    }

    /** Whether plaintext waits for a read. */
    boolean hasPlaintext() {
        return plaintext.position() > 0;
    }

    /**
     * Gives the plaintext buffer, empty, room for {@code capacity} bytes: a spare, or a larger buffer of the
     * channel's own if the engine's plaintext outgrew the spares.
     */
    void plaintextRoom(int capacity) {
        if (plaintext == NO_PLAINTEXT && capacity <= plaintextSpares.capacity()) {
            plaintext = plaintextSpares.take();
        } else if (capacity > plaintext.capacity()) {
            givePlaintextBack();
            plaintext = ByteBuffer.allocate(capacity);
        }
    }

    /** Moves as much plaintext as {@code dst} holds into it; gives the buffer back once it is empty. */
    int moveTo(ByteBuffer dst) {
        plaintext.flip();
        int n = Math.min(plaintext.remaining(), dst.remaining());
        int limit = plaintext.limit();
        plaintext.limit(plaintext.position() + n);
        dst.put(plaintext);
        plaintext.limit(limit);
        plaintext.compact();
        givePlaintextBackIfEmpty();
        return n;
    }

    /** Gives the plaintext buffer back if it holds nothing (after an unwrap of a handshake message into it, say). */
    void givePlaintextBackIfEmpty() {
        if (plaintext.position() == 0) {
            givePlaintextBack();
        }
    }

    private void givePlaintextBack() {
        if (plaintext != NO_PLAINTEXT) {
            plaintextSpares.give(plaintext);
            plaintext = NO_PLAINTEXT;
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * The channel is closed: gives back the plaintext buffer (no read will take it) and, unless a socket write of
     * it is still in flight ({@link #sendEnded()} gives it back then), the send buffer with what was not sent.
     */
    void release(boolean writing) {
        if (!writing && toSend != null) {
            giveBackSendBuffer();
        }
        givePlaintextBack();
    }

    private static ByteBuffer grow(ByteBuffer b, int capacity) {
        ByteBuffer bigger = b.isDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        b.flip();
        bigger.put(b);
        return bigger;
    }
}
