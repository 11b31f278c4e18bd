package dev.proactor;

import dev.proactor.spi.OpKind;

/**
 * What an {@link AsynchChannel} wraps, and so which operations make sense on it. Stream sockets keep the
 * original rule (any stream operation is passed to the engine, which reports a mismatch such as an accept on a
 * connected socket as the operation's error); the newer kinds are checked at the call.
 */
enum ChannelType {
    /** A stream socket, connected or to be connected. */
    SOCKET("stream socket", OpKind.STREAM_MASK | OpKind.TRANSMIT_FILE.bit()),
    /** A listening stream socket. */
    SERVER("listening socket", OpKind.STREAM_MASK),
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
