package dev.proactor.toolkit;

import java.io.EOFException;

/** The peer closed its side before a {@link ReadFully} had filled its buffer; carries how much was read. */
public final class ShortReadException extends EOFException {

    private static final long serialVersionUID = 1L;

    private final long bytesRead;

    public ShortReadException(long bytesRead, long wanted) {
        super("end of stream after " + bytesRead + " of " + wanted + " bytes");
        this.bytesRead = bytesRead;
    }

    /** Bytes read into the buffer before the end of the stream. */
    public long bytesRead() {
        return bytesRead;
    }
}
