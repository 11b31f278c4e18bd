package dev.proactor.spi;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;

/**
 * An engine's state for one channel: the descriptor it works on and the at most one pending request per
 * direction (input: read/accept/receive/file read, output: write/connect/send/file write/transmit). Created by
 * {@link Engine#register(java.nio.channels.Channel)}, {@link Engine#openSocket}, {@link Engine#openServer} or
 * {@link Engine#adopt(Object)}, {@link Engine#openDatagram} or {@link Engine#openFile}; released by {@link #close()}.
 *
 * <p>Thread-safe: the core calls these methods from any thread.
 */
public interface EngineChannel {

    /** Local address, or {@code null} if unbound. */
    SocketAddress localAddress() throws IOException;

    /** Remote address, or {@code null} if unconnected. */
    SocketAddress remoteAddress() throws IOException;

    /** Shuts down the output side (sends FIN); pending writes are not affected. */
    void shutdownOutput() throws IOException;

    /**
     * Shuts down the input side of a connected stream socket: reads from now on see end-of-stream; data the peer
     * sends later is discarded.
     *
     * @throws UnsupportedOperationException if this is not a stream socket (the default)
     * @throws IOException                   if the system call fails, e.g. the socket is not connected
     */
    default void shutdownInput() throws IOException {
        throw new UnsupportedOperationException("shutdownInput needs a connected stream socket, not " + this);
    }

    /**
     * The size of a file channel.
     *
     * @throws UnsupportedOperationException if this is not a file channel (the default)
     * @throws IOException                   if the size cannot be read, e.g. the channel is closed
     */
    default long size() throws IOException {
        throw new UnsupportedOperationException("size() needs a file channel, not " + this);
    }

    /**
     * Releases the channel. The core has already cancelled every request; the descriptor must be released only
     * once no thread is inside a system call on it. Idempotent.
     */
    void close() throws IOException;

    /** Whether {@link #close()} has been called or the underlying channel is closed. */
    boolean isClosed();

    /**
     * Sets a socket option (e.g. {@code StandardSocketOptions.TCP_NODELAY}).
     *
     * @throws UnsupportedOperationException if the channel or engine does not support the option (the default)
     * @throws IOException                   if setting it fails
     */
    default <T> void setOption(SocketOption<T> name, T value) throws IOException {
        throw new UnsupportedOperationException("socket option " + name + " is not supported by " + this);
    }

    /**
     * Reads a socket option.
     *
     * @throws UnsupportedOperationException if the channel or engine does not support the option (the default)
     */
    default <T> T getOption(SocketOption<T> name) throws IOException {
        throw new UnsupportedOperationException("socket option " + name + " is not supported by " + this);
    }
}
