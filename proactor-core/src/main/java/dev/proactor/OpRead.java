package dev.proactor;

import dev.proactor.spi.OpKind;

/**
 * A completed read of a stream socket ({@link OpKind#READ}) or of a file at a position
 * ({@link OpKind#READ_FILE}). On success at least one byte was read into the buffers (their positions advanced),
 * or there is nothing more to read ({@link #isEndOfStream()}, {@link #getBytesCompleted()} is -1): the peer
 * closed its side, or the file position was at or after the end of the file. A file read may return fewer
 * bytes than the buffer has room for, like {@code pread}; read again from the next position for more.
 */
public final class OpRead extends BufferOp {

    OpRead(AsynchChannel channel) {
        super(channel, true);
    }

    /** Whether the peer closed its output (socket) or the position was at or after the end (file). */
    public boolean isEndOfStream() {
        return request.error() == null && request.bytes() < 0;
    }
}
