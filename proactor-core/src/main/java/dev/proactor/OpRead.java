package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;

/**
 * A completed read. On success at least one byte was read into the buffers (their positions advanced) or the
 * peer closed its side ({@link #isEndOfStream()}, {@link #getBytesCompleted()} is -1).
 */
public final class OpRead extends ChannelOp {

    OpRead(AsynchChannel channel) {
        super(channel, channel.input);
    }

    @Override
    public OpKind getKind() {
        return OpKind.READ;
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

    /** Whether the peer closed its output: no more bytes will come. */
    public boolean isEndOfStream() {
        return request.error() == null && request.bytes() < 0;
    }
}
