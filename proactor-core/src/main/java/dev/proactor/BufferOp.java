package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;

/**
 * What reads and writes share: the buffers they moved bytes into or out of, and the file position for file
 * operations. Read inside the callback only; the object is reused afterwards.
 */
public abstract sealed class BufferOp extends ChannelOp permits OpRead, OpWrite {

    BufferOp(AsynchChannel channel, boolean input) {
        super(channel, input);
    }

    /** {@link OpKind#READ}/{@link OpKind#WRITE} for a socket, {@code READ_FILE}/{@code WRITE_FILE} for a file. */
    @Override
    public OpKind getKind() {
        return request.kind();
    }

    /** The file position the operation started at; 0 for a socket. */
    public long getPosition() {
        return request.position();
    }

    /** The (first) buffer. */
    public ByteBuffer getBuffer() {
        return request.firstBuffer();
    }

    /** The buffer array of a scattering read or gathering write (the same array object); see {@link #getOffset()}. */
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
