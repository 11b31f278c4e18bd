package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A connected loopback pair for dispatch tests: a blocking JDK client socket and the accepted side wrapped by the
 * seed constructor on the demultiplexor under test. Closing closes both.
 */
final class SocketPair implements AutoCloseable {
    final SocketChannel client;
    final AsynchChannel server;

    SocketPair(Demultiplexor demux, AsynchHandler handler) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = SocketChannel.open(listener.getLocalAddress());
            server = new AsynchChannel(demux, handler, listener.accept());
        }
    }

    /** Writes {@code bytes} zero bytes from the client (for the server side to read). */
    void send(int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes);
        while (b.hasRemaining()) {
            client.write(b);
        }
    }

    /** Reads exactly {@code bytes} on the client side (what the server wrote). */
    void receive(int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes);
        while (b.hasRemaining()) {
            client.read(b);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        client.close();
    }
}
