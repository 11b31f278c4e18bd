package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;

/**
 * A completed write to a stream socket ({@link OpKind#WRITE}) or to a file at a position
 * ({@link OpKind#WRITE_FILE}). On success every byte that was remaining in the buffers when the write started has been
 * written (partial writes are continued by the engine); on error {@link #getBytesCompleted()} tells how many
 * were written before it.
 */
public final class OpWrite extends ChannelOp {

    OpWrite(AsynchChannel channel) {
        super(channel, channel.output);
    }

    /** {@link OpKind#WRITE} for a socket, {@link OpKind#WRITE_FILE} for a file. */
    @Override
    public OpKind getKind() {
        return request.kind();
    }

    /** The file position a file write started at; 0 for a socket write. */
    public long getPosition() {
        return request.position();
    }

    /** The (first) buffer written from. */
    public ByteBuffer getBuffer() {
        return request.firstBuffer();
    }

    /** The buffer array given to a gathering write (the same array object); see {@link #getOffset()}. */
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
}
