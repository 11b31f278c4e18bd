package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;

/**
 * A completed write. On success every byte that was remaining in the buffers when the write started has been
 * written (partial writes are continued by the engine); on error {@link #getBytesCompleted()} tells how many
 * were written before it.
 */
public final class OpWrite extends ChannelOp {

    OpWrite(AsynchChannel channel) {
        super(channel, channel.output);
    }

    @Override
    public OpKind getKind() {
        return OpKind.WRITE;
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
