package dev.proactor.bench.jmh;

import dev.proactor.bench.server.EchoServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the per-channel I/O counters cost: the same pipelined echo on this project's engines, measured in a JVM
 * with the counters on ({@link StatisticsOnBenchmark}, the default) and one started with
 * {@code -Dproactor.ioStatistics=false} ({@link StatisticsOffBenchmark}); JFR events are off in both, so their
 * disabled check is part of both scores. {@value #WINDOW} messages of {@value #MESSAGE_SIZE} bytes are in flight
 * per invocation so the score is dominated by the server's operations rather than by one round trip's latency.
 * Compare the two classes' scores for the same {@code server}.
 */
@State(Scope.Benchmark)
public abstract class StatisticsCostBenchmark {

    static final int MESSAGE_SIZE = 64;
    static final int WINDOW = 16;

    /** Which server echoes (this project's engines only: the counters are theirs). */
    @Param({"proactor-nio-epoll", "proactor-epoll"})
    public String server;

    private EchoServer echo;
    private SocketChannel client;
    private ByteBuffer out;
    private ByteBuffer in;

    /**
     * Starts the server and connects the client.
     *
     * @throws Exception when the engine is unavailable or the connection fails
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        echo = InProcessEchoServers.create(server);
        InetSocketAddress address = echo.start();
        client = SocketChannel.open(address);
        client.setOption(StandardSocketOptions.TCP_NODELAY, true);
        out = ByteBuffer.allocateDirect(MESSAGE_SIZE * WINDOW);
        in = ByteBuffer.allocateDirect(MESSAGE_SIZE * WINDOW);
    }

    /**
     * Closes the client and stops the server.
     *
     * @throws Exception when closing fails
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        if (echo != null) {
            echo.stop();
        }
    }

    /**
     * Writes {@value #WINDOW} messages at once and reads all echoed bytes back.
     *
     * @return a byte of the echo (so the read is not dead code)
     * @throws IOException when the connection fails
     */
    @Benchmark
    public byte window() throws IOException {
        BlockingEcho.exchange(client, out, in);
        return in.get(in.limit() - 1);
    }
}
