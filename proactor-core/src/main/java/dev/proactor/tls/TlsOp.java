package dev.proactor.tls;

import java.nio.ByteBuffer;

/**
 * A completed operation of a {@link TlsChannel}: what was asked and what happened. Read it inside the callback
 * only; the object is reused afterwards.
 */
public final class TlsOp {

    /** The kinds of operation. */
    public enum Kind {
        /** {@link TlsChannel#handshake(Object)} or the handshake of {@link TlsChannel#connect}. */
        HANDSHAKE,
        /** {@link TlsChannel#read(ByteBuffer, Object)}. */
        READ,
        /** {@link TlsChannel#write(ByteBuffer[], int, int, Object)}. */
        WRITE,
        /** {@link TlsChannel#shutdownOutput(Object)}. */
        SHUTDOWN;

        boolean isInput() {
            return this == HANDSHAKE || this == READ;
        }
    }

    final TlsChannel channel;
    Kind kind;
    Object attachment;
    ByteBuffer[] buffers;
    /** The array of a single-buffer operation, reused so that it allocates nothing. */
    private final ByteBuffer[] one = new ByteBuffer[1];
    int offset;
    int length;
    /** Plaintext bytes moved, -1 at end-of-stream. */
    long bytes;
    Throwable error;
    /** For output operations: the ciphertext total that must have been sent for this one to complete. */
    long sentMark;
    /** Link in the free list. */
    TlsOp nextFree;

    TlsOp(TlsChannel channel) {
        this.channel = channel;
    }

    void prepare(Kind k, ByteBuffer[] bufs, int off, int len, Object att) {
        kind = k;
        buffers = bufs;
        offset = off;
        length = len;
        attachment = att;
        bytes = 0;
        error = null;
        sentMark = 0;
    }

    void prepare(Kind k, ByteBuffer buffer, Object att) {
        one[0] = buffer;
        prepare(k, buffer == null ? null : one, 0, buffer == null ? 0 : 1, att);
    }

    void recycle() {
        one[0] = null;
        buffers = null;
        attachment = null;
        error = null;
    }

    /** Whether plaintext remains to be taken from the buffers (writes). */
    boolean hasRemaining() {
        for (int i = offset; i < offset + length; i++) {
            if (buffers[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** The kind of operation. */
    public Kind getKind() {
        return kind;
    }

    /** The channel the operation ran on. */
    public TlsChannel getChannel() {
        return channel;
    }

    /** The object given when the operation was started, or {@code null}. */
    public Object getAttachment() {
        return attachment;
    }

    /** The (first) buffer of a read or write, {@code null} for a handshake or shutdown. */
    public ByteBuffer getBuffer() {
        return buffers == null ? null : buffers[offset];
    }

    /**
     * The buffer array of a gathering write (the same array object), or a one-element array owned by this
     * object for a single-buffer read or write; {@code null} for a handshake or shutdown.
     */
    public ByteBuffer[] getBuffers() {
        return buffers;
    }

    /**
     * Plaintext bytes: for a read, the bytes stored in the buffer, or -1 at end-of-stream; for a write, the bytes
     * taken from the buffers (all of them on success; on error those encrypted before it, which the peer may or
     * may not have received); 0 for a handshake or shutdown.
     */
    public long getBytesCompleted() {
        return bytes;
    }

    /** The error the operation ended with, or {@code null} on success. */
    public Throwable getError() {
        return error;
    }

    /** Whether the operation ended without error. */
    public boolean isSuccess() {
        return error == null;
    }

    /** Whether a read found the peer's {@code close_notify}: no more plaintext will come. */
    public boolean isEndOfStream() {
        return error == null && bytes < 0;
    }

    @Override
    public String toString() {
        return "TlsOp[" + kind + ", bytes=" + bytes + ", error=" + error + "]";
    }
}
