package dev.proactor.internal;

import dev.proactor.spi.OpKind;

/**
 * What an {@link ChannelCore} wraps, and so which operations make sense on it: starting any other operation is
 * misuse visible at the call, so it throws {@link UnsupportedOperationException} there (an accept on a stream
 * socket, a read, write or connect on a listening socket, a receive on a stream socket, ...).
 */
public enum ChannelType {
    /** A stream socket, connected or to be connected. */
    SOCKET("stream socket", (OpKind.STREAM_MASK & ~OpKind.ACCEPT.bit()) | OpKind.TRANSMIT_FILE.bit(), false),
    /** A listening stream socket: its accept loop takes a burst of queued connections in one trip. */
    SERVER("listening socket", OpKind.ACCEPT.bit(), true),
    /** A datagram socket, connected or not: one channel serving many peers takes their datagrams in one trip. */
    DATAGRAM("datagram socket", OpKind.DATAGRAM_MASK, true),
    /** A file. */
    FILE("file", OpKind.FILE_MASK, false);

    private final String description;
    private final int allowed;
    private final boolean chainedByDefault;

    ChannelType(String description, int allowed, boolean chainedByDefault) {
        this.description = description;
        this.allowed = allowed;
        this.chainedByDefault = chainedByDefault;
    }

    /** Whether a channel of this type has {@link ChannelCore#setChainedCallbacks chained callbacks} by default. */
    boolean chainedByDefault() {
        return chainedByDefault;
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
