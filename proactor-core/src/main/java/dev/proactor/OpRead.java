package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;

/**
 * A completed read of a stream socket ({@link OpKind#READ}) or of a file at a position
 * ({@link OpKind#READ_FILE}). On success at least one byte was read into the buffers (their positions advanced),
 * or there is nothing more to read ({@link #isEndOfStream()}, {@link #getBytesCompleted()} is -1): the peer
 * closed its side, or the file position was at or after the end of the file. A file read may return fewer
 * bytes than the buffer has room for, like {@code pread}; read again from the next position for more.
 */
public final class OpRead extends ChannelOp {

    OpRead(AsynchChannel channel) {
        super(channel, channel.input);
    }

    /** {@link OpKind#READ} for a socket, {@link OpKind#READ_FILE} for a file. */
    @Override
    public OpKind getKind() {
        return request.kind();
    }

    /** The file position a file read started at; 0 for a socket read. */
    public long getPosition() {
        return request.position();
    }

    /** The (first) buffer read into. */
    public ByteBuffer getBuffer() {
        return request.firstBuffer();
    }

    /** The buffer array given to a scattering read (the same array object); see {@link #getOffset()}. */
    public ByteBuffer[] getBuffers() {
        return request.buffers();
    }

    /** Index of the first buffer used in {@link #getBuffers()}. */
    public int getOffset() {
        return request.offset();
    }

    /** Number of buffers used in {@link #getBuffers()}. */
    public int getLength() {
        return request.length();
    }

    /** Whether the peer closed its output (socket) or the position was at or after the end (file). */
    public boolean isEndOfStream() {
        return request.error() == null && request.bytes() < 0;
    }
}
