package dev.proactor.examples.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * What an {@link HttpConnection} does with its connection, plain ({@link PlainTransport}) or TLS
 * ({@link TlsTransport}): each operation completes with the matching {@code ...Completed} method of the
 * connection.
 */
interface HttpTransport {

    /** Reads into {@code dst}; completes with {@link HttpConnection#readCompleted}. */
    void read(ByteBuffer dst);

    /** Writes all of {@code src}; completes with {@link HttpConnection#writeCompleted}. */
    void write(ByteBuffer src);

    /**
     * Sends {@code head} then {@code count} bytes of {@code file} from {@code position}; completes with
     * {@link HttpConnection#transmitCompleted}.
     */
    void transmitFile(FileChannel file, long position, long count, ByteBuffer head);

    /** Ends the output (the client reads the end of the response); reads go on. */
    void shutdownOutput() throws IOException;

    /** Closes at once; pending operations complete with errors. */
    void close();
}
