package dev.proactor;

import dev.proactor.spi.OpKind;

/**
 * A completed write to a stream socket ({@link OpKind#WRITE}) or to a file at a position
 * ({@link OpKind#WRITE_FILE}). On success every byte that was remaining in the buffers when the write started has been
 * written (partial writes are continued by the engine); on error {@link #getBytesCompleted()} tells how many
 * were written before it.
 */
public final class OpWrite extends BufferOp {

    OpWrite(AsynchChannel channel) {
        super(channel, false);
    }
}
