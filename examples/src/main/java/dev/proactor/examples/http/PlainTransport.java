package dev.proactor.examples.http;

import dev.proactor.AsynchChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A plain TCP connection: the socket's own operations ({@code transmitFile} zero-copy); their completions go to
 * the {@link HttpConnection}, the channel's handler.
 */
final class PlainTransport implements HttpTransport {

    private final AsynchChannel channel;

    PlainTransport(AsynchChannel channel) {
        this.channel = channel;
    }

    @Override
    public void read(ByteBuffer dst) {
        channel.read(dst);
    }

    @Override
    public void write(ByteBuffer src) {
        channel.write(src);
    }

    @Override
    public void transmitFile(FileChannel file, long position, long count, ByteBuffer head) {
        channel.transmitFile(file, position, count, head, null, null);
    }

    @Override
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}
