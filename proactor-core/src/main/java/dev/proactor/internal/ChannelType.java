package dev.proactor.internal;

import dev.proactor.spi.OpKind;

/**
 * What an {@link ChannelCore} wraps, and so which operations make sense on it: starting any other operation is
 * misuse visible at the call, so it throws {@link UnsupportedOperationException} there (an accept on a stream
 * socket, a read, write or connect on a listening socket, a receive on a stream socket, ...).
 */
public enum ChannelType {
    /** A stream socket, connected or to be connected. */
    SOCKET("stream socket", (OpKind.STREAM_MASK & ~OpKind.ACCEPT.bit()) | OpKind.TRANSMIT_FILE.bit(), false,
            CallbackChain.MAX_CHAINED_AT_START),
    /**
     * A listening stream socket: its accept loop takes a burst of queued connections in one trip, up to
     * {@link CallbackChain#ACCEPTS_CHAINED_AT_START}, as a selector loop accepts until its backlog is empty.
     */
    SERVER("listening socket", OpKind.ACCEPT.bit(), true, CallbackChain.ACCEPTS_CHAINED_AT_START),
    /** A datagram socket, connected or not: one channel serving many peers takes their datagrams in one trip. */
    DATAGRAM("datagram socket", OpKind.DATAGRAM_MASK, true, CallbackChain.MAX_CHAINED_AT_START),
    /** A file. */
    FILE("file", OpKind.FILE_MASK, false, CallbackChain.MAX_CHAINED_AT_START);

    private final String description;
    private final int allowed;
    private final boolean chainedByDefault;
    private final int chainLimit;

    ChannelType(String description, int allowed, boolean chainedByDefault, int chainLimit) {
        this.description = description;
        this.allowed = allowed;
        this.chainedByDefault = chainedByDefault;
        this.chainLimit = chainLimit;
    }

    /** Whether a channel of this type has {@link ChannelCore#setChainedCallbacks chained callbacks} by default. */
    boolean chainedByDefault() {
        return chainedByDefault;
    }

    /** Callbacks one thread dispatches in a row after the first on a channel of this type ({@link CallbackChain}). */
    int chainLimit() {
        return chainLimit;
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
