package dev.proactor.bench.jmh;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.bench.server.TlsCredentials;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
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
 * The CPU cost of {@link TlsChannel} on both ends of a connection, without a second process: N TLS clients and
 * their echo server's connections on one demultiplexor that the benchmark thread itself drives
 * ({@code handleEvents}, no pool thread), so one invocation (a block written by every client, each echoed back)
 * measures this project's TLS path and nothing waits for another thread. The score is batches per millisecond;
 * multiply by N for echoes. {@code -prof gc} shows the allocation per batch.
 *
 * <pre>{@code java -jar proactor-bench/target/benchmarks.jar TlsChannelEchoBenchmark -prof gc}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class TlsChannelEchoBenchmark {

    /** The engine of the demultiplexor. */
    @Param({"nio", "epoll"})
    public String engine;

    /** Plaintext bytes each client writes per batch. */
    @Param({"1024"})
    public int block;

    /** Connections. */
    @Param({"16"})
    public int connections;

    private Demultiplexor demux;
    private AsynchChannel listener;
    private Client[] clients;
    private int pending;
    private int handshaking;
    /** Set at tear-down: the connections' reads then end with the close, as they should. */
    private boolean closing;

    /**
     * Opens the demultiplexor, the echo server and the clients, and drives the handshakes.
     *
     * @throws Exception when the engine is unavailable or a handshake fails
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        TlsCredentials credentials = TlsCredentials.temporary();
        SSLContext serverContext = credentials.serverContext();
        SSLContext clientContext = credentials.clientContext();
        demux = Demultiplexor.open(ProactorConfig.builder().engine(engine).build());
        listener = AsynchChannel.openServer(demux, new Acceptor(serverContext),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), connections);
        listener.accept();
        InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
        clients = new Client[connections];
        handshaking = connections;
        for (int i = 0; i < connections; i++) {
            SSLEngine e = clientContext.createSSLEngine("localhost", address.getPort());
            e.setUseClientMode(true);
            clients[i] = new Client();
            clients[i].tls = TlsChannel.connect(demux, address, e, Runnable::run, clients[i], null);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (handshaking > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(handshaking + " handshakes did not finish");
            }
            demux.handleEvents(100, TimeUnit.MILLISECONDS);
        }
    }

    /** Closes everything. */
    @TearDown(Level.Trial)
    public void tearDown() {
        closing = true;
        demux.close();
    }

    /**
     * Every client writes a block and gets it back.
     *
     * @return the blocks echoed
     */
    @Benchmark
    public int batch() {
        pending = connections;
        for (Client c : clients) {
            c.out.clear();
            c.tls.write(c.out, null);
        }
        while (pending > 0) {
            demux.handleEvents(1, TimeUnit.SECONDS);
        }
        return connections;
    }

    private final class Client implements TlsHandler {
        TlsChannel tls;
        final ByteBuffer out = ByteBuffer.allocate(block);
        final ByteBuffer in = ByteBuffer.allocate(block);

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                throw new IllegalStateException("client handshake failed", op.getError());
            }
            try {
                tls.getTransport().setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            handshaking--;
            tls.read(in, null);
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (closing) {
                return;
            }
            if (!op.isSuccess() || op.isEndOfStream()) {
                throw new IllegalStateException("the echo ended", op.getError());
            }
            if (!in.hasRemaining()) {
                in.clear();
                pending--;
            }
            tls.read(in, null);
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            if (!op.isSuccess() && !closing) {
                throw new IllegalStateException("client write failed", op.getError());
            }
        }
    }

    /** Adopts each connection into an echo: reads into a buffer and writes back what it read. */
    private final class Acceptor implements AsynchHandler {
        private final SSLContext context;

        Acceptor(SSLContext context) {
            this.context = context;
        }

        @Override
        public void onAcceptCompleted(OpAccept op) throws IOException {
            if (!op.isSuccess()) {
                return;
            }
            Echo echo = new Echo();
            echo.tls = TlsChannel.adopt(op, TlsCredentials.serverEngine(context), Runnable::run, echo);
            echo.tls.getTransport().setOption(StandardSocketOptions.TCP_NODELAY, true);
            echo.tls.handshake(null);
            listener.accept();
        }

        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    private static final class Echo implements TlsHandler {
        TlsChannel tls;
        final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            if (op.isSuccess()) {
                tls.read(buffer, null);
            }
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (op.isSuccess() && !op.isEndOfStream()) {
                buffer.flip();
                tls.write(buffer, null);
            }
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            if (op.isSuccess()) {
                buffer.clear();
                tls.read(buffer, null);
            }
        }
    }
}
