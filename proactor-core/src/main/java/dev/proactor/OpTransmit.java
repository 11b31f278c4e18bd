package dev.proactor;

import dev.proactor.spi.OpKind;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A completed file transmission ({@link AsynchChannel#transmitFile}): on success the header, {@link #getCount()}
 * bytes of the file from {@link #getPosition()} and the trailer were all sent, in that order. On error
 * {@link #getBytesCompleted()} tells how many bytes in all went out before it and {@link #getFileBytes()} how
 * many of them came from the file; in particular a file that ends before {@code position + count} fails with
 * {@link java.io.EOFException} after the bytes that exist were sent (the trailer is then not sent).
 */
public final class OpTransmit extends ChannelOp {

    OpTransmit(AsynchChannel channel) {
        super(channel, false);
    }

    @Override
    public OpKind getKind() {
        return OpKind.TRANSMIT_FILE;
    }

    /** Header, file and trailer bytes sent. */
    @Override
    public long getBytesCompleted() {
        return request.bytes();
    }

    /** File bytes sent (at most {@link #getCount()}). */
    public long getFileBytes() {
        return request.fileBytes();
    }

    /** The file transmitted from. */
    public FileChannel getFile() {
        return request.file();
    }

    /** The file position the transmission started at. */
    public long getPosition() {
        return request.position();
    }

    /** The number of file bytes requested. */
    public long getCount() {
        return request.count();
    }

    /** The header buffer, or {@code null}. */
    public ByteBuffer getHeader() {
        return request.header();
    }

    /** The trailer buffer, or {@code null}. */
    public ByteBuffer getTrailer() {
        return request.trailer();
    }
}
