package dev.proactor.spi;

/**
 * The kinds of operation a proactor starts (the seed's operation codes). An {@link Engine} declares which
 * kinds it supports; the demultiplexor routes each channel to the first processor whose engine supports it.
 */
public enum OpKind {
    /** Read from a stream socket into one or more buffers; completes when at least one byte or end-of-stream. */
    READ,
    /** Write one or more buffers to a stream socket; completes when every byte has been written. */
    WRITE,
    /** Accept one connection on a listening socket. */
    ACCEPT,
    /** Connect a stream socket to a remote address. */
    CONNECT,
    /** Receive one datagram with its sender's address. */
    RECEIVE,
    /** Send one datagram to an address (or to the connected peer). */
    SEND,
    /** Read from a file at a position. */
    READ_FILE,
    /** Write to a file at a position; completes when every byte has been written. */
    WRITE_FILE,
    /**
     * Send a region of a file, with optional header and trailer buffers, over a connected stream socket (the
     * seed's TransmitFile); completes when every requested byte has been sent. An output-direction operation.
     */
    TRANSMIT_FILE;

    /** Bit of this kind in a supported-operations mask. */
    public int bit() {
        return 1 << ordinal();
    }

    /**
     * Whether operations of this kind belong to the input direction of a channel (read, accept, receive, file
     * read) rather than the output one (write, connect, send, file write, transmit).
     */
    public boolean isInput() {
        return this == READ || this == ACCEPT || this == RECEIVE || this == READ_FILE;
    }

    /** Mask of the stream-socket kinds (READ, WRITE, ACCEPT, CONNECT). */
    public static final int STREAM_MASK = READ.bit() | WRITE.bit() | ACCEPT.bit() | CONNECT.bit();

    /** Mask of the datagram kinds (RECEIVE, SEND). */
    public static final int DATAGRAM_MASK = RECEIVE.bit() | SEND.bit();

    /** Mask of the file kinds (READ_FILE, WRITE_FILE). */
    public static final int FILE_MASK = READ_FILE.bit() | WRITE_FILE.bit();
}
