package dev.proactor.bench.jmh;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** The client side of the in-process echo benchmarks: one blocking exchange, allocation-free. */
final class BlockingEcho {

    private BlockingEcho() {
    }

    /**
     * Writes all of {@code out} (from position 0) and reads until {@code in} (from position 0) is full.
     *
     * @throws EOFException if the server closes the connection first
     * @throws IOException  when the connection fails
     */
    static void exchange(SocketChannel client, ByteBuffer out, ByteBuffer in) throws IOException {
        out.clear();
        while (out.hasRemaining()) {
            client.write(out);
        }
        in.clear();
        while (in.hasRemaining()) {
            if (client.read(in) < 0) {
                throw new EOFException("echo server closed the connection");
            }
        }
    }
}
