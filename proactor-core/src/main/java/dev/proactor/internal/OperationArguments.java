package dev.proactor.internal;

import dev.proactor.spi.OpKind;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Checks what an operation of an {@link ChannelCore} is started with, before anything is started: the kind
 * (the channel's and its engine's), buffers, addresses, file positions and counts, and converts the timeout.
 * Each check throws what the channel's methods document ({@link IllegalArgumentException},
 * {@link NullPointerException}, {@link IndexOutOfBoundsException}, {@link UnsupportedOperationException}).
 *
 * <p>Thread-safety: no state; runs on the thread starting the operation.
 */
final class OperationArguments {

    private OperationArguments() {
    }

    /** Throws if {@code kind} is not an operation of {@code channel} or its engine. */
    static void checkOperation(ChannelCore channel, OpKind kind) {
        if (!channel.type.allows(kind)) {
            throw new UnsupportedOperationException(kind + " is not an operation of a " + channel.type + " channel");
        }
        if (!channel.processor.supports(kind)) {
            throw new UnsupportedOperationException("engine '" + channel.processor.engine().name()
                    + "' does not run " + kind);
        }
    }

    static long timeoutNanos(long timeout, TimeUnit unit) {
        if (timeout < 0) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        return Objects.requireNonNull(unit, "unit").toNanos(timeout);
    }

    /** Checks {@code dst}, to {@code operation} ("read", "receive") into: not null, writable, with space left. */
    static void checkDestination(ByteBuffer dst, String operation) {
        checkReadable(Objects.requireNonNull(dst, "dst"));
        if (!dst.hasRemaining()) {
            throw new IllegalArgumentException(operation + " into a buffer with no space remaining");
        }
    }

    /** Checks {@code dsts[offset .. offset+length)} of a scattering read: in range, writable, some space left. */
    static void checkDestinations(ByteBuffer[] dsts, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(dsts, "dsts").length);
        boolean space = false;
        for (int i = offset; i < offset + length; i++) {
            checkReadable(Objects.requireNonNull(dsts[i], "dsts[" + i + "]"));
            space |= dsts[i].hasRemaining();
        }
        if (!space) {
            throw new IllegalArgumentException("read into buffers with no space remaining");
        }
    }

    /** Checks {@code srcs[offset .. offset+length)} of a gathering write: in range, no null. */
    static void checkSources(ByteBuffer[] srcs, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(srcs, "srcs").length);
        for (int i = offset; i < offset + length; i++) {
            Objects.requireNonNull(srcs[i], "srcs[" + i + "]");
        }
    }

    /** Checks the file range and the buffers of a transmission. */
    static void checkTransmit(long position, long count, ByteBuffer header, ByteBuffer trailer) {
        checkPosition(position);
        if (count < 0 || count > Long.MAX_VALUE - position) {
            throw new IllegalArgumentException("count must be >= 0 and position + count must not overflow: "
                    + position + " + " + count);
        }
        if (header != null && header == trailer) {
            throw new IllegalArgumentException("header and trailer must be different buffers");
        }
    }

    private static void checkReadable(ByteBuffer b) {
        if (b.isReadOnly()) {
            throw new IllegalArgumentException("read into a read-only buffer");
        }
    }

    static void checkResolved(SocketAddress address) {
        if (address instanceof InetSocketAddress isa && isa.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address: " + address);
        }
    }

    static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative file position: " + position);
        }
    }
}
