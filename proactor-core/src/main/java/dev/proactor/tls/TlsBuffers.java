package dev.proactor.tls;

import java.nio.ByteBuffer;

/**
 * The buffers of one {@link TlsChannel} and who holds them. The socket reads into and writes from direct
 * buffers (the native engines would otherwise copy heap buffers through bounce buffers of every channel's own);
 * the {@link javax.net.ssl.SSLEngine} encrypts and decrypts between heap buffers, where the JDK's ciphers work on
 * the arrays directly (on direct buffers they go through copies of their own and cost more: JMH
 * {@code TlsRecordBenchmark}, 1.19× the echoes per second at 1 KiB on JDK 17). Ciphertext is copied once each way
 * between the two.
 *
 * <ul>
 *   <li>The <b>receive buffer</b> (direct) is the channel's own: a socket read into it is in flight whenever the
 *       channel waits for its peer, idle or not. {@link #unwrapInput()} moves what it received to the <b>unwrap
 *       buffer</b> (heap), which collects a record over as many reads as it takes, so the receive buffer need not
 *       hold one: it starts at {@value #FIRST_RECEIVE} bytes and doubles, up to one packet, each time a read
 *       filled it ({@link #readEnded()}), so a connection that only ever exchanges small messages keeps that
 *       little while idle, and one that moves bulk data reads a packet per system call after a few reads.
 *   <li>The engine wraps into the <b>wrap buffer</b> (heap); {@link #flipOutgoing()} copies it into the <b>send
 *       buffer</b> (direct), which the socket write holds until it ended ({@link #sendEnded()}).
 *   <li>The <b>plaintext buffer</b> (heap) holds a record larger than the room a reader's buffer has, given to the
 *       reads in pieces; otherwise records are decrypted straight into the readers' buffers.
 * </ul>
 *
 * All but the receive buffer are {@link SpareBuffers spares}, taken when bytes go into them and given back as soon
 * as they are empty: an idle connection keeps one packet's worth of memory, and busy connections share a few warm
 * buffers instead of each using cold ones of its own. All buffers are in write mode except the send buffer while a
 * socket write of it is in flight (flipped) and the unwrap buffer between {@link #unwrapInput()} and
 * {@link #unwrapDone()}.
 *
 * <p><b>Lock.</b> None of its own: its {@link TlsRecordLayer} and {@link TlsEngineLoop} call it with the loop's lock
 * held. A buffer with a socket operation in flight is not touched, and the send buffer is not given back before
 * the socket write of it ended.
 */
final class TlsBuffers {

    /**
     * The unwrap and the plaintext buffer while they hold nothing (and so the wrap buffer's place holder is null
     * instead: it is tested far more often). An unwrap of application data into it overflows and takes a spare.
     * Never written (it has no room), shared by every channel.
     */
    private static final ByteBuffer NONE = ByteBuffer.allocate(0);
    /** The receive buffer's first capacity (at most a packet). */
    static final int FIRST_RECEIVE = 4096;

    /** Heap, two packets: the wrap and the unwrap buffers. */
    private final SpareBuffers ciphertextSpares;
    /** Direct, two packets: send buffers. */
    private final SpareBuffers sendSpares;
    private final SpareBuffers plaintextSpares;
    private ByteBuffer received;
    /** The receive buffer's largest capacity: one packet. */
    private final int packetSize;
    /** The last read filled the receive buffer: the next one gets a larger one (up to a packet). */
    private boolean receiveFilled;
    private ByteBuffer toUnwrap = NONE;
    /** Null while the engine wrapped nothing that is not sent yet. */
    private ByteBuffer wrapped;
    /** Null unless a socket write of it was started and has not ended. */
    private ByteBuffer sending;
    private ByteBuffer plaintext = NONE;

    TlsBuffers(int packetSize, int applicationBufferSize) {
        this.packetSize = packetSize;
        received = ByteBuffer.allocateDirect(Math.min(FIRST_RECEIVE, packetSize));
        ciphertextSpares = SpareBuffers.of(2 * packetSize, false);
        sendSpares = SpareBuffers.of(2 * packetSize, true);
        plaintextSpares = SpareBuffers.of(applicationBufferSize, false);
    }

    // ---------------------------------------------------------------- receiving

    /** The receive buffer, for the socket read. */
    ByteBuffer received() {
        return received;
    }

    /** A socket read into the receive buffer ended with bytes: notes whether it filled the buffer. */
    void readEnded() {
        receiveFilled = !received.hasRemaining();
    }

    /**
     * Makes room in the receive buffer for the socket read the caller then starts: doubles it if the last read
     * filled it and it is smaller than a packet, or if it is full (what it holds is kept). No read in flight.
     */
    void makeRoomToReceive() {
        if (!received.hasRemaining()) {
            received = grow(received, 2 * received.capacity());
        } else if (receiveFilled && received.capacity() < packetSize) {
            received = grow(received, Math.min(2 * received.capacity(), packetSize));
        }
        receiveFilled = false;
    }

    /** Whether ciphertext was received that is not unwrapped yet. */
    boolean hasCiphertext() {
        return received.position() > 0 || toUnwrap.position() > 0;
    }

    /**
     * Moves what was received after the ciphertext not unwrapped yet and returns all of it, flipped for unwraps;
     * {@link #unwrapDone()} must follow. Only while {@link #hasCiphertext()} and no socket read is in flight.
     */
    ByteBuffer unwrapInput() {
        int n = received.position();
        if (n > 0) {
            if (toUnwrap == NONE) {
                toUnwrap = n <= ciphertextSpares.capacity() ? ciphertextSpares.take() : ByteBuffer.allocate(n);
            } else if (toUnwrap.remaining() < n) {
                ByteBuffer larger = grow(toUnwrap, toUnwrap.position() + n);
                ciphertextSpares.give(toUnwrap);
                toUnwrap = larger;
            }
            received.flip();
            toUnwrap.put(received);
            received.clear();
        }
        return toUnwrap.flip();
    }

    /** Keeps what the unwraps left (a record not complete yet) and gives the buffer back if that is nothing. */
    void unwrapDone() {
        toUnwrap.compact();
        if (toUnwrap.position() == 0) {
            ciphertextSpares.give(toUnwrap);
            toUnwrap = NONE;
        }
    }

    /** The bytes received of a record not yet complete (for the truncation message). */
    int partialRecordBytes() {
        return toUnwrap.position() + received.position();
    }

    // ---------------------------------------------------------------- sending

    /** The wrap buffer, taken from the spares if the channel holds none. */
    ByteBuffer toWrapInto() {
        if (wrapped == null) {
            wrapped = ciphertextSpares.take();
        }
        return wrapped;
    }

    /** Whether a record of {@code packetSize} bytes fits in the wrap buffer (there being none counts as room). */
    boolean wrapRoomFor(int packetSize) {
        return wrapped == null || wrapped.remaining() >= packetSize;
    }

    /** Whether the wrap buffer holds no ciphertext (there being none counts as empty). */
    boolean wrapEmpty() {
        return wrapped == null || wrapped.position() == 0;
    }

    /** Replaces the empty wrap buffer with a larger one of the channel's own (the engine's records grew). */
    void wrapAtLeast(int capacity) {
        if (wrapped != null) {
            ciphertextSpares.give(wrapped);
        }
        wrapped = ByteBuffer.allocate(capacity);
    }

    /**
     * If ciphertext was wrapped, copies it into a send buffer flipped for the socket write the caller then
     * starts ({@link #outgoing()}) and returns {@code true}. No socket write in flight.
     */
    boolean flipOutgoing() {
        if (wrapped == null) {
            return false;
        }
        int n = wrapped.position();
        if (n > 0) {
            sending = n <= sendSpares.capacity() ? sendSpares.take() : ByteBuffer.allocateDirect(n);
            sending.put(wrapped.flip()).flip();
        }
        ciphertextSpares.give(wrapped); // also one taken for a wrap that produced nothing
        wrapped = null;
        return n > 0;
    }

    /** The buffer a socket write must send, once {@link #flipOutgoing()} returned true. */
    ByteBuffer outgoing() {
        return sending;
    }

    /** The socket write of the send buffer ended (all sent, or failed): it goes back to the spares. */
    void sendEnded() {
        if (sending != null) {
            sendSpares.give(sending);
            sending = null;
        }
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
        if (plaintext == NONE && capacity <= plaintextSpares.capacity()) {
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
        if (plaintext != NONE) {
            plaintextSpares.give(plaintext);
            plaintext = NONE;
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * The channel is closed: gives back every spare it holds, except the send buffer while a socket write of it
     * is in flight ({@link #sendEnded()} gives it back then). What they held is dropped.
     */
    void release() {
        if (wrapped != null) {
            ciphertextSpares.give(wrapped);
            wrapped = null;
        }
        if (toUnwrap != NONE) {
            ciphertextSpares.give(toUnwrap);
            toUnwrap = NONE;
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
