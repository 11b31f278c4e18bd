package dev.proactor.bench.jmh;

import dev.proactor.bench.server.EchoServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
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
 * One round trip of 64 bytes over loopback to an in-process echo server with one server thread (this
 * project's engines, or Netty's NIO and epoll transports as the baseline), from a blocking
 * {@link SocketChannel} with direct buffers, so the client allocates nothing per operation and
 * {@code -prof gc} shows the server's allocation per round trip.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class EchoRoundTripBenchmark {
    private static final int MESSAGE_SIZE = 64;

    /** Which server echoes (also {@code jdk-nio2} and {@code nio2-on-proactor-E}: the plain NIO.2 program on the JDK's and on our provider). */
    @Param({"proactor-nio-epoll", "proactor-epoll", "netty-nio", "netty-epoll"})
    public String server;

    private EchoServer echo;
    private SocketChannel client;
    private ByteBuffer out;
    private ByteBuffer in;

    /**
     * Starts the server and connects the client.
     *
     * @throws Exception when the transport is unavailable or the connection fails
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        echo = InProcessEchoServers.create(server);
        InetSocketAddress address = echo.start();
        client = SocketChannel.open(address);
        client.setOption(StandardSocketOptions.TCP_NODELAY, true);
        out = ByteBuffer.allocateDirect(MESSAGE_SIZE);
        for (int i = 0; i < MESSAGE_SIZE; i++) {
            out.put(i, (byte) i);
        }
        in = ByteBuffer.allocateDirect(MESSAGE_SIZE);
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
     * Writes 64 bytes and reads the 64 echoed bytes.
     *
     * @return a byte of the echo (so the read is not dead code)
     * @throws IOException when the connection fails
     */
    @Benchmark
    public byte roundTrip() throws IOException {
        BlockingEcho.exchange(client, out, in);
        return in.get(MESSAGE_SIZE - 1);
    }
}
