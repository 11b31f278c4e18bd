package dev.proactor;

import dev.proactor.spi.OpKind;

/**
 * What an {@link AsynchChannel} wraps, and so which operations make sense on it: starting any other operation is
 * misuse visible at the call, so it throws {@link UnsupportedOperationException} there (an accept on a stream
 * socket, a read, write or connect on a listening socket, a receive on a stream socket, ...).
 */
enum ChannelType {
    /** A stream socket, connected or to be connected. */
    SOCKET("stream socket", (OpKind.STREAM_MASK & ~OpKind.ACCEPT.bit()) | OpKind.TRANSMIT_FILE.bit()),
    /** A listening stream socket. */
    SERVER("listening socket", OpKind.ACCEPT.bit()),
    /** A datagram socket, connected or not. */
    DATAGRAM("datagram socket", OpKind.DATAGRAM_MASK),
    /** A file. */
    FILE("file", OpKind.FILE_MASK);

    private final String description;
    private final int allowed;

    ChannelType(String description, int allowed) {
        this.description = description;
        this.allowed = allowed;
    }

    /** Whether operations of {@code kind} may be started on a channel of this type. */
    boolean allows(OpKind kind) {
        return (allowed & kind.bit()) != 0;
    }

    @Override
    public String toString() {
        return description;
    }
}
