package dev.proactor.examples;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The same TCP echo as {@link EchoServer}, on the JDK's own proactor ({@link AsynchronousSocketChannel} in a
 * fixed thread pool group): the point of comparison {@code bin/echo-demo} runs next to ours. One read buffer
 * per connection of the same size; read, write it all back, read again.
 */
public final class JdkEchoServer implements AutoCloseable {

    private final AsynchronousChannelGroup group;
    private final AsynchronousServerSocketChannel listener;
    private final int bufferSize;

    /** Binds and starts accepting on a group of {@code threads} threads. */
    public JdkEchoServer(InetSocketAddress bind, int threads, int bufferSize) throws IOException {
        this.bufferSize = bufferSize;
        this.group = AsynchronousChannelGroup.withFixedThreadPool(threads, Executors.defaultThreadFactory());
        try {
            this.listener = AsynchronousServerSocketChannel.open(group).bind(bind, 1024);
        } catch (IOException | RuntimeException e) {
            group.shutdownNow();
            throw e;
        }
        accept();
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    private void accept() {
        listener.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
            @Override
            public void completed(AsynchronousSocketChannel ch, Void unused) {
                accept();
                try {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                } catch (IOException e) {
                    close(ch);
                    return;
                }
                new Connection(ch).read();
            }

            @Override
            public void failed(Throwable t, Void unused) {
                if (listener.isOpen()) {
                    accept(); // e.g. a connection reset before it was accepted
                }
            }
        });
    }

    /** One connection: read into the buffer, write it all back, read again. */
    private final class Connection implements CompletionHandler<Integer, Boolean> {
        private final AsynchronousSocketChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(bufferSize);

        Connection(AsynchronousSocketChannel ch) {
            this.ch = ch;
        }

        void read() {
            buf.clear();
            ch.read(buf, Boolean.TRUE, this);
        }

        @Override
        public void completed(Integer n, Boolean wasRead) {
            if (wasRead && n < 0) {
                close(ch);
                return;
            }
            if (wasRead) {
                buf.flip();
            }
            if (buf.hasRemaining()) {
                ch.write(buf, Boolean.FALSE, this);
            } else {
                read();
            }
        }

        @Override
        public void failed(Throwable t, Boolean wasRead) {
            close(ch);
        }
    }

    private static void close(AsynchronousSocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing a broken connection: nothing to report
        }
    }

    /** Stops accepting and closes every connection and the group's threads. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // the group's shutdown below closes it anyway
        }
        try {
            group.shutdownNow();
            group.awaitTermination(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // already shut down
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
