package dev.proactor.bench.jmh;

import dev.proactor.bench.server.EchoServer;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput on N connections: one invocation sends a 512-byte block on every connection and waits until
 * every block has come back, so the server has N messages to serve at once. The client is a single
 * non-blocking selector loop with direct buffers (no allocation), so {@code -prof gc} shows the server's.
 * The score is batches per millisecond; multiply by N for messages.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class EchoThroughputBenchmark {
    private static final int BLOCK = 512;

    /** Which server echoes (also {@code jdk-nio2} and {@code nio2-on-proactor-E}: the plain NIO.2 program on the JDK's and on our provider). */
    @Param({"proactor-nio-epoll", "proactor-epoll", "netty-nio", "netty-epoll"})
    public String server;

    /** Connections served at once. */
    @Param({"16"})
    public int connections;

    private EchoServer echo;
    private Selector selector;
    private SocketChannel[] clients;
    private ByteBuffer[] out;
    private ByteBuffer[] in;
    private int pending;

    /**
     * Starts the server and connects the clients.
     *
     * @throws Exception when the server cannot start or a connection fails
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        echo = InProcessEchoServers.create(server);
        InetSocketAddress address = echo.start();
        selector = Selector.open();
        clients = new SocketChannel[connections];
        out = new ByteBuffer[connections];
        in = new ByteBuffer[connections];
        for (int i = 0; i < connections; i++) {
            SocketChannel c = SocketChannel.open(address);
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.configureBlocking(false);
            c.register(selector, SelectionKey.OP_READ, i);
            clients[i] = c;
            out[i] = ByteBuffer.allocateDirect(BLOCK);
            in[i] = ByteBuffer.allocateDirect(BLOCK);
        }
    }

    /**
     * Closes the clients and stops the server.
     *
     * @throws Exception when closing fails
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        for (SocketChannel c : clients) {
            if (c != null) {
                c.close();
            }
        }
        selector.close();
        echo.stop();
    }

    /**
     * Sends a block on every connection and reads every echo.
     *
     * @return the number of blocks echoed
     * @throws IOException when a connection fails
     */
    @Benchmark
    public int batch() throws IOException {
        for (int i = 0; i < connections; i++) {
            ByteBuffer b = out[i];
            b.clear();
            while (b.hasRemaining()) {
                clients[i].write(b); // 512 bytes always fit in an idle socket buffer
            }
            in[i].clear();
        }
        pending = connections;
        while (pending > 0) {
            selector.select(this::onReadable);
        }
        return connections;
    }

    private void onReadable(SelectionKey key) {
        int i = (Integer) key.attachment();
        ByteBuffer b = in[i];
        if (!b.hasRemaining()) {
            return;
        }
        try {
            if (clients[i].read(b) < 0) {
                throw new IllegalStateException(new EOFException("echo server closed connection " + i));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (!b.hasRemaining()) {
            pending--;
        }
    }
}
