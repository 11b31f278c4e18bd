package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.EngineProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The socket conformance suite, written once and run by every engine module: a concrete subclass names its engine
 * ({@link EngineUnderTest}) and inherits every test, each run under every configuration {@link ConfigurationTable}
 * gives. An engine the machine cannot run is skipped with
 * its unavailability cause.
 *
 * <p>Waits are bounded only as hang guards (a test that would hang fails instead); nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractConformanceTest {

    /** Row {@code SOCKETS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.SOCKETS, test);
    }

    /** Hang guard for awaiting completions. */
    private static final long GUARD_SECONDS = 60;
    private static final String NAME = "[{index}] {0}";

    /** Opens and starts a demultiplexor for {@code config}, or skips the test if the engine is unavailable. */
    protected static Demultiplexor open(ProactorConfig config) throws IOException {
        EngineProvider p = ConformanceMatrix.provider(config.engine());
        assumeTrue(p.isAvailable(), () -> "engine " + config.engine() + " unavailable: " + p.unavailabilityCause());
        return Demultiplexor.open(config).start();
    }

    static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + what + " never happened");
    }

    static Socket connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.connect(address);
        s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        return s;
    }

    // ------------------------------------------------------------------------------------------ data integrity

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void echoesRandomDataInRandomChunksOnManySessions(ProactorConfig config) throws Exception {
        int sessions = 12;
        int bytesPerSession = 300_000;
        Random sizes = new Random(42);
        try (Demultiplexor demux = open(config);
             TestServer server = new TestServer(demux, () -> new EchoHandler(1 + sizes.nextInt(4000)))) {
            ExecutorService pool = Executors.newFixedThreadPool(2 * sessions);
            try {
                List<Future<Long>> sent = new ArrayList<>();
                List<Future<Long>> received = new ArrayList<>();
                List<Socket> sockets = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    Socket s = connect(server.address());
                    sockets.add(s);
                    long seed = i;
                    sent.add(pool.submit(() -> writeRandomChunks(s.getOutputStream(), seed, bytesPerSession)));
                    received.add(pool.submit(() -> readAll(s.getInputStream(), bytesPerSession, 1 + (int) seed * 97)));
                }
                for (int i = 0; i < sessions; i++) {
                    assertEquals(sent.get(i).get(), received.get(i).get(), "checksum of session " + i);
                }
                for (Socket s : sockets) {
                    s.close();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static long writeRandomChunks(OutputStream out, long seed, int total) throws IOException {
        Random r = new Random(seed);
        CRC32 crc = new CRC32();
        int written = 0;
        while (written < total) {
            byte[] chunk = new byte[Math.min(total - written, 1 + r.nextInt(9000))];
            r.nextBytes(chunk);
            crc.update(chunk);
            out.write(chunk);
            written += chunk.length;
        }
        out.flush();
        return crc.getValue();
    }

    private static long readAll(InputStream in, int total, int readSize) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[Math.max(1, readSize)];
        int got = 0;
        while (got < total) {
            int n = in.read(buf, 0, Math.min(buf.length, total - got));
            if (n < 0) {
                throw new IOException("end of stream after " + got + " of " + total + " bytes");
            }
            crc.update(buf, 0, n);
            got += n;
        }
        return crc.getValue();
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void servesAThousandConcurrentConnections(ProactorConfig config) throws Exception {
        int clients = 1000;
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> new EchoHandler(128))) {
            CountDownLatch done = new CountDownLatch(clients);
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            List<PingClient> all = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                PingClient c = new PingClient(i, done, failures);
                all.add(c);
                c.channel = AsynchChannel.openSocket(demux, c);
                c.channel.connect(server.address());
            }
            await(done, "1000 echoes");
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            assertEquals(clients, server.accepted.size());
            for (PingClient c : all) {
                c.channel.close();
            }
        }
    }

    /** A proactor client that sends 100 bytes derived from its id and checks the echo. */
    private static final class PingClient implements AsynchHandler {
        private final int id;
        private final CountDownLatch done;
        private final Queue<String> failures;
        private final ByteBuffer out = ByteBuffer.allocateDirect(100);
        private final ByteBuffer in = ByteBuffer.allocateDirect(100);
        AsynchChannel channel;

        PingClient(int id, CountDownLatch done, Queue<String> failures) {
            this.id = id;
            this.done = done;
            this.failures = failures;
            for (int i = 0; i < 100; i++) {
                out.put((byte) (id * 7 + i));
            }
            out.flip();
        }

        @Override
        public void onConnectCompleted(OpConnect op) {
            if (!op.isSuccess()) {
                failures.add(id + ": connect " + op.getError());
                done.countDown();
                return;
            }
            channel.write(out);
            channel.read(in);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) {
                failures.add(id + ": write " + op.getError());
            }
        }

        @Override
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                failures.add(id + ": read " + op.getError());
                done.countDown();
                return;
            }
            if (in.hasRemaining()) {
                channel.read(in);
                return;
            }
            for (int i = 0; i < 100; i++) {
                if (in.get(i) != (byte) (id * 7 + i)) {
                    failures.add(id + ": byte " + i + " differs");
                    break;
                }
            }
            done.countDown();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aMaximumInFlightDefersOperationsWithoutLosingAny(ProactorConfig config) throws Exception {
        // Every client sends all its data before reading, so each pending server read finishes and frees
        // its slot: the limit then delays operations but never blocks progress.
        int clients = 24;
        int size = 700;
        ProactorConfig limited = config.toBuilder().maxInFlight(3).build();
        try (Demultiplexor demux = open(limited);
             TestServer server = new TestServer(demux, () -> new EchoHandler(32))) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    long seed = i;
                    results.add(pool.submit(() -> {
                        try (Socket s = connect(server.address())) {
                            long sent = writeRandomChunks(s.getOutputStream(), seed, size);
                            assertEquals(sent, readAll(s.getInputStream(), size, 50));
                            return sent;
                        }
                    }));
                }
                for (Future<Long> f : results) {
                    assertNotNull(f.get());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ peer behaviour

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void peerHalfCloseEndsReadsButWritesStillWork(ProactorConfig config) throws Exception {
        AtomicInteger bytesBeforeEof = new AtomicInteger();
        CountDownLatch eof = new CountDownLatch(1);
        ConnectionHandler handler = new ConnectionHandler() {
            private final ByteBuffer buf = ByteBuffer.allocate(1000);
            private AsynchChannel ch;

            @Override
            public void start(AsynchChannel channel) {
                ch = channel;
                ch.read(buf);
            }

            @Override
            public void onReadCompleted(OpRead op) {
                if (op.isEndOfStream()) {
                    eof.countDown();
                    ch.write(ByteBuffer.wrap("bye".getBytes(StandardCharsets.US_ASCII)));
                    return;
                }
                assertNull(op.getError());
                bytesBeforeEof.addAndGet((int) op.getBytesCompleted());
                buf.clear();
                ch.read(buf);
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                ch.close();
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket s = connect(server.address())) {
            s.getOutputStream().write(new byte[10_000]);
            s.shutdownOutput();
            byte[] reply = s.getInputStream().readAllBytes();
            await(eof, "end-of-stream");
            assertEquals(10_000, bytesBeforeEof.get());
            assertEquals("bye", new String(reply, StandardCharsets.US_ASCII));
        }
    }

    /**
     * Reads that each take everything the socket holds, with the next bytes sent before the next read starts
     * (no read pending when they arrive) or after it started, then the last bytes together with the end of the
     * stream: every byte arrives, and the end is reported to every later read. Catches a lost wake-up in an
     * engine that waits for readiness without trying first (an edge-triggered one that decides a socket is
     * drained, say), including the last bytes and the end reported by one event.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void readsAfterDrainingReadsSeeLaterBytesAndTheEnd(ProactorConfig config) throws Exception {
        LinkedBlockingQueue<Long> reads = new LinkedBlockingQueue<>();
        CompletableFuture<AsynchChannel> accepted = new CompletableFuture<>();
        ConnectionHandler handler = new ConnectionHandler() {
            @Override
            public void start(AsynchChannel channel) {
                accepted.complete(channel);
            }

            @Override
            public void onReadCompleted(OpRead op) {
                reads.add(op.getError() != null ? Long.MIN_VALUE : op.isEndOfStream() ? -1 : op.getBytesCompleted());
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }
        };
        ByteBuffer direct = ByteBuffer.allocateDirect(4096);
        ByteBuffer heap = ByteBuffer.allocate(4096);
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket s = connect(server.address())) {
            AsynchChannel channel = accepted.get(GUARD_SECONDS, TimeUnit.SECONDS);
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 200; i++) {
                int size = 1 + i * 7 % 300;
                boolean bytesFirst = i % 2 == 0;
                ByteBuffer buffer = i % 4 < 2 ? direct : heap;
                if (bytesFirst) {
                    out.write(new byte[size]);
                }
                channel.read(buffer.clear());
                if (!bytesFirst) {
                    out.write(new byte[size]);
                }
                long received = nextRead(reads);
                while (received > 0 && received < size) {
                    channel.read(buffer.clear());
                    received += nextRead(reads);
                }
                assertEquals(size, received, "round " + i);
            }
            out.write(new byte[10]); // the last bytes and the end, likely reported together
            s.shutdownOutput();
            long last = 0;
            while (last < 10) {
                channel.read(direct.clear());
                long n = nextRead(reads);
                assertTrue(n > 0, "bytes before the end, got " + n);
                last += n;
            }
            for (int i = 0; i < 3; i++) {
                channel.read(direct.clear());
                assertEquals(-1, nextRead(reads), "end of stream, read " + i);
            }
        }
    }

    private static long nextRead(LinkedBlockingQueue<Long> reads) throws InterruptedException {
        Long bytes = reads.poll(GUARD_SECONDS, TimeUnit.SECONDS);
        assertNotNull(bytes, "hang guard: a read never completed");
        return bytes;
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void peerResetDeliversErrorsAndNothingHangs(ProactorConfig config) throws Exception {
        AtomicReference<OpReadResult> readResult = new AtomicReference<>();
        AtomicReference<Throwable> writeError = new AtomicReference<>();
        CountDownLatch readDone = new CountDownLatch(1);
        CountDownLatch writeFailed = new CountDownLatch(1);
        ConnectionHandler handler = new ConnectionHandler() {
            private final ByteBuffer in = ByteBuffer.allocate(100);
            private final ByteBuffer out = ByteBuffer.allocateDirect(64 * 1024);
            private AsynchChannel ch;
            private int writes;

            @Override
            public void start(AsynchChannel channel) {
                ch = channel;
                ch.read(in);
            }

            @Override
            public void onReadCompleted(OpRead op) {
                readResult.set(new OpReadResult(op.getBytesCompleted(), op.getError()));
                readDone.countDown();
                out.clear();
                ch.write(out);
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                if (op.getError() != null) {
                    writeError.set(op.getError());
                    writeFailed.countDown();
                    ch.close();
                } else if (++writes < 10_000) {
                    out.clear();
                    ch.write(out);
                }
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler)) {
            Socket s = connect(server.address());
            while (server.accepted.isEmpty()) {
                Thread.onSpinWait(); // make sure the read is pending before the reset arrives
            }
            s.setSoLinger(true, 0);
            s.close();
            await(readDone, "read completion after reset");
            OpReadResult r = readResult.get();
            assertTrue(r.error() instanceof IOException || r.bytes() < 0, () -> "read after reset: " + r);
            await(writeFailed, "write error after reset");
            assertInstanceOf(IOException.class, writeError.get());
        }
    }

    private record OpReadResult(long bytes, Throwable error) {
    }

    // ------------------------------------------------------------------------------------------ close and cancel

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeCompletesEveryPendingOperationExactlyOnceWithAnError(ProactorConfig config) throws Exception {
        int writes = 8;
        AtomicIntegerArray writeCalls = new AtomicIntegerArray(writes);
        AtomicInteger readCalls = new AtomicInteger();
        AtomicInteger lateReadCalls = new AtomicInteger();
        Queue<Throwable> writeErrors = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> readError = new AtomicReference<>();
        AtomicReference<Throwable> lateError = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch all = new CountDownLatch(writes + 2);
        ConnectionHandler handler = new ConnectionHandler() {
            private AsynchChannel ch;

            @Override
            public void start(AsynchChannel channel) {
                ch = channel;
                ch.read(ByteBuffer.allocate(10), "first");
                for (int i = 0; i < writes; i++) {
                    ch.write(ByteBuffer.allocateDirect(4 << 20), i); // the peer never reads: they stay pending
                }
                started.countDown();
            }

            @Override
            public void onReadCompleted(OpRead op) {
                if ("first".equals(op.getAttachment())) {
                    readCalls.incrementAndGet();
                    readError.set(op.getError());
                    ch.read(ByteBuffer.allocate(10), "late"); // after close: must fail, not hang
                } else {
                    lateReadCalls.incrementAndGet();
                    lateError.set(op.getError());
                }
                all.countDown();
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                writeCalls.incrementAndGet((Integer) op.getAttachment());
                if (op.getError() != null) {
                    writeErrors.add(op.getError());
                }
                all.countDown();
            }
        };
        Demultiplexor demux = open(config);
        try (TestServer server = new TestServer(demux, () -> handler); Socket peer = connect(server.address())) {
            await(started, "operations started");
            AsynchChannel accepted = server.accepted.peek();
            assertNotNull(accepted);
            accepted.close();
            await(all, "every completion");
            assertFalse(accepted.isOpen());
            assertNotNull(peer);
        } finally {
            demux.close(); // drains the queue: a duplicate completion would be counted now
        }
        assertEquals(1, readCalls.get());
        assertEquals(1, lateReadCalls.get());
        assertInstanceOf(AsynchronousCloseException.class, readError.get());
        assertInstanceOf(ClosedChannelException.class, lateError.get());
        for (int i = 0; i < writes; i++) {
            assertEquals(1, writeCalls.get(i), "completions of write " + i);
        }
        // 32 MiB cannot fit in the socket buffers of a peer that never reads: the later writes must fail.
        assertTrue(writeErrors.size() >= writes / 2, () -> "write errors: " + writeErrors);
        for (Throwable t : writeErrors) {
            assertInstanceOf(ClosedChannelException.class, t); // AsynchronousCloseException is one
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void cancelEndsPendingReadAndTheChannelStaysUsable(ProactorConfig config) throws Exception {
        AtomicReference<Throwable> cancelled = new AtomicReference<>();
        AtomicReference<String> data = new AtomicReference<>();
        CountDownLatch readPending = new CountDownLatch(1);
        CountDownLatch cancelSeen = new CountDownLatch(1);
        CountDownLatch dataSeen = new CountDownLatch(1);
        ConnectionHandler handler = new ConnectionHandler() {
            private final ByteBuffer buf = ByteBuffer.allocate(16);
            private AsynchChannel ch;

            @Override
            public void start(AsynchChannel channel) {
                ch = channel;
                ch.read(buf);
                readPending.countDown();
            }

            @Override
            public void onReadCompleted(OpRead op) {
                if (op.getError() != null) {
                    cancelled.set(op.getError());
                    cancelSeen.countDown();
                    ch.read(buf);
                    return;
                }
                data.set(new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII));
                dataSeen.countDown();
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                throw new AssertionError("no writes");
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket peer = connect(server.address())) {
            await(readPending, "read started");
            server.accepted.peek().cancel();
            await(cancelSeen, "cancelled read");
            assertInstanceOf(OperationCancelledException.class, cancelled.get());
            peer.getOutputStream().write('x');
            await(dataSeen, "read after cancel");
            assertEquals("x", data.get());
            assertTrue(server.accepted.peek().isOpen());
        }
    }

    // ------------------------------------------------------------------------------------------ big writes

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void sixteenMebibyteWriteToASlowReaderCompletesWhole(ProactorConfig config) throws Exception {
        int size = 16 << 20;
        byte[] data = new byte[size];
        new Random(7).nextBytes(data);
        CRC32 expected = new CRC32();
        expected.update(data);
        AtomicReference<OpWriteResult> result = new AtomicReference<>();
        CountDownLatch written = new CountDownLatch(1);
        ConnectionHandler handler = new ConnectionHandler() {
            @Override
            public void start(AsynchChannel channel) {
                ByteBuffer b = ByteBuffer.allocateDirect(size).put(data).flip();
                channel.write(b);
            }

            @Override
            public void onReadCompleted(OpRead op) {
                throw new AssertionError("no reads");
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                result.set(new OpWriteResult(op.getBytesCompleted(), op.getError(), op.getBuffer().remaining()));
                written.countDown();
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket peer = connect(server.address())) {
            InputStream in = peer.getInputStream();
            CRC32 got = new CRC32();
            byte[] small = new byte[1024];
            int total = 0;
            while (total < size) {
                int n = in.read(small);
                assertTrue(n > 0, "stream ended early at " + total);
                got.update(small, 0, n);
                total += n;
                if (total % (1 << 20) < n) {
                    Thread.sleep(1); // a slow reader: the writer sees the socket buffer full many times
                }
            }
            await(written, "write completion");
            assertEquals(new OpWriteResult(size, null, 0), result.get());
            assertEquals(expected.getValue(), got.getValue());
        }
    }

    private record OpWriteResult(long bytes, Throwable error, int remaining) {
    }

    // ------------------------------------------------------------------------------------------ connect

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void connectToARefusedPortCompletesWithConnectException(ProactorConfig config) throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        AsynchHandler client = new AsynchHandler() {
            @Override
            public void onConnectCompleted(OpConnect op) {
                error.set(op.getError());
                done.countDown();
            }

            @Override
            public void onReadCompleted(OpRead op) {
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }
        };
        try (Demultiplexor demux = open(config); AsynchChannel ch = AsynchChannel.openSocket(demux, client)) {
            ch.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            await(done, "connect completion");
            assertInstanceOf(ConnectException.class, error.get());
        }
    }

    // ------------------------------------------------------------------------------------------ handler failures

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aThrowingHandlerClosesItsChannelOnlyAndThePoolKeepsWorking(ProactorConfig config) throws Exception {
        AtomicInteger connections = new AtomicInteger();
        ConnectionHandler thrower = new ConnectionHandler() {
            @Override
            public void start(AsynchChannel channel) {
                channel.read(ByteBuffer.allocate(10));
            }

            @Override
            public void onReadCompleted(OpRead op) {
                throw new IllegalStateException("handler failure on purpose (conformance test)");
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }
        };
        try (Demultiplexor demux = open(config);
             TestServer server = new TestServer(demux, () -> connections.getAndIncrement() == 0 ? thrower
                     : new EchoHandler(64))) {
            Socket first = connect(server.address());
            first.getOutputStream().write("boom".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, first.getInputStream().read(), "the failing channel is closed");
            first.close();
            for (int i = 0; i < 2 * config.threads() + 2; i++) { // every pool thread is still serving
                try (Socket s = connect(server.address())) {
                    s.getOutputStream().write(new byte[] {1, 2, 3});
                    assertArrayEquals(new byte[] {1, 2, 3}, s.getInputStream().readNBytes(3));
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------ ordering

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void completionsOfOneDirectionAreInOrderAndNeverConcurrent(ProactorConfig config) throws Exception {
        int ops = 200;
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        CountDownLatch writesDone = new CountDownLatch(ops);
        CountDownLatch readsDone = new CountDownLatch(ops);
        ConnectionHandler handler = new ConnectionHandler() {
            private final AtomicBoolean inRead = new AtomicBoolean();
            private final AtomicBoolean inWrite = new AtomicBoolean();
            private int nextWrite;
            private int nextRead;

            @Override
            public void start(AsynchChannel channel) {
                for (int i = 0; i < ops; i++) {
                    channel.write(ByteBuffer.allocate(4).putInt(0, i), i);
                }
                for (int i = 0; i < ops; i++) {
                    channel.read(ByteBuffer.allocate(1), i);
                }
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                if (!inWrite.compareAndSet(false, true)) {
                    violations.add("concurrent write completions");
                }
                if ((Integer) op.getAttachment() != nextWrite++) {
                    violations.add("write " + op.getAttachment() + " completed out of order");
                }
                spin();
                inWrite.set(false);
                writesDone.countDown();
            }

            @Override
            public void onReadCompleted(OpRead op) {
                if (!inRead.compareAndSet(false, true)) {
                    violations.add("concurrent read completions");
                }
                int i = (Integer) op.getAttachment();
                if (i != nextRead++) {
                    violations.add("read " + i + " completed out of order");
                }
                if (op.getBytesCompleted() != 1 || op.getBuffer().get(0) != (byte) i) {
                    violations.add("read " + i + " got the wrong byte");
                }
                spin();
                inRead.set(false);
                readsDone.countDown();
            }

            private void spin() {
                long end = System.nanoTime() + 20_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket peer = connect(server.address())) {
            byte[] seq = new byte[ops];
            for (int i = 0; i < ops; i++) {
                seq[i] = (byte) i;
            }
            peer.getOutputStream().write(seq);
            ByteBuffer echoed = ByteBuffer.wrap(peer.getInputStream().readNBytes(4 * ops));
            await(writesDone, "writes");
            await(readsDone, "reads");
            assertTrue(violations.isEmpty(), () -> "violations: " + violations);
            for (int i = 0; i < ops; i++) {
                assertEquals(i, echoed.getInt(), "the peer receives the writes in order");
            }
        }
    }

    // ------------------------------------------------------------------------------------------ resources

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void leavesNoFileDescriptorBehind(ProactorConfig config) throws Exception {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        runConnections(config, 20); // warm-up: lazily created JDK resources are not leaks
        long before = countFds(fds);
        for (int cycle = 0; cycle < 3; cycle++) {
            runConnections(config, 50); // a leak grows with every cycle; an earlier test's late close shrinks it once
        }
        long after = countFds(fds);
        assertTrue(after <= before, "open file descriptors grew from " + before + " to " + after
                + " over three full life cycles");
    }

    private static void runConnections(ProactorConfig config, int n) throws Exception {
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> new EchoHandler(64))) {
            List<Socket> sockets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Socket s = connect(server.address());
                s.getOutputStream().write(7);
                assertEquals(7, s.getInputStream().read());
                sockets.add(s);
            }
            for (int i = 0; i < n; i += 2) {
                sockets.get(i).close(); // half of them closed by the peer first, the rest by the demultiplexor
            }
            AsynchChannel connecting = AsynchChannel.openSocket(demux, new EchoHandler(8));
            assertTrue(connecting.isOpen());
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    /**
     * Counts the descriptors an engine can own (sockets, epoll/eventfd anon inodes, pipes). Files the JVM opens
     * on its own now and then (e.g. cgroup statistics) are left out, so they cannot make the count flap.
     */
    private static long countFds(Path fds) throws IOException {
        try (Stream<Path> s = Files.list(fds)) {
            return s.filter(AbstractConformanceTest::isEngineDescriptor).count();
        }
    }

    private static boolean isEngineDescriptor(Path fd) {
        try {
            String target = Files.readSymbolicLink(fd).toString();
            return target.startsWith("socket:") || target.startsWith("anon_inode:") || target.startsWith("pipe:");
        } catch (IOException e) {
            return false; // closed while listing (e.g. the listing's own descriptor)
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void socketOptionsAreSetAndReadAndAClosedChannelRefusesThem(ProactorConfig config) throws Exception {
        try (Demultiplexor demux = open(config)) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, new EchoHandler(8));
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertEquals(true, ch.getOption(StandardSocketOptions.TCP_NODELAY));
            ch.setOption(StandardSocketOptions.TCP_NODELAY, false);
            assertEquals(false, ch.getOption(StandardSocketOptions.TCP_NODELAY));
            ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            assertEquals(true, ch.getOption(StandardSocketOptions.SO_KEEPALIVE));
            assertThrows(NullPointerException.class, () -> ch.getOption(null));
            ch.close();
            assertThrows(ClosedChannelException.class, () -> ch.setOption(StandardSocketOptions.TCP_NODELAY, true));
        }
    }

    // ------------------------------------------------------------------------------------------ bad input

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void badInputIsRejectedClearlyAndDisturbsNothing(ProactorConfig config) throws Exception {
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> new EchoHandler(64));
             AsynchChannel ch = AsynchChannel.openSocket(demux, new EchoHandler(8))) {
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(8).asReadOnlyBuffer()));
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(0)));
            assertThrows(NullPointerException.class, () -> ch.read((ByteBuffer) null));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> ch.read(new ByteBuffer[] {ByteBuffer.allocate(1)}, 1, 1, null));
            assertThrows(NullPointerException.class, () -> ch.write((ByteBuffer) null));
            assertThrows(NullPointerException.class, () -> ch.connect(null));
            assertThrows(IllegalArgumentException.class,
                    () -> ch.connect(InetSocketAddress.createUnresolved("example.invalid", 80)));
            assertThrows(NullPointerException.class, () -> new AsynchChannel(demux, null, SocketChannel.open()));
            assertThrows(BindException.class,
                    () -> AsynchChannel.openServer(demux, new EchoHandler(8), server.address(), 0));
            // The server still serves after all that.
            try (Socket s = connect(server.address())) {
                s.getOutputStream().write(42);
                assertEquals(42, s.getInputStream().read());
            }
        }
    }

    /**
     * An operation refused for a bad argument (a null, read-only or out-of-range buffer of a scattering read or a
     * gathering write, a bad timeout) throws before anything of it is taken: on a connected channel, the next read
     * and write work and the refused ones moved no byte.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void refusedOperationsTakeNothingAndTheNextOnesWork(ProactorConfig config) throws Exception {
        LinkedBlockingQueue<Long> reads = new LinkedBlockingQueue<>();
        LinkedBlockingQueue<Long> writes = new LinkedBlockingQueue<>();
        CompletableFuture<AsynchChannel> accepted = new CompletableFuture<>();
        ConnectionHandler handler = new ConnectionHandler() {
            @Override
            public void start(AsynchChannel channel) {
                accepted.complete(channel);
            }

            @Override
            public void onReadCompleted(OpRead op) {
                reads.add(op.getError() != null ? Long.MIN_VALUE : op.getBytesCompleted());
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                writes.add(op.getError() != null ? Long.MIN_VALUE : op.getBytesCompleted());
            }
        };
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> handler);
             Socket s = connect(server.address())) {
            AsynchChannel ch = accepted.get(GUARD_SECONDS, TimeUnit.SECONDS);
            ByteBuffer one = ByteBuffer.wrap(new byte[] {1});
            ByteBuffer readOnly = ByteBuffer.allocate(1).asReadOnlyBuffer();
            assertThrows(NullPointerException.class, () -> ch.write(new ByteBuffer[] {one, null}));
            assertThrows(NullPointerException.class, () -> ch.write(new ByteBuffer[] {null, one}, 0, 2, null));
            assertThrows(IndexOutOfBoundsException.class, () -> ch.write(new ByteBuffer[] {one}, 0, 2, null));
            assertThrows(IllegalArgumentException.class, () -> ch.write(one, -1, TimeUnit.SECONDS, null));
            assertThrows(NullPointerException.class, () -> ch.write(one, 5, null, null));
            assertThrows(NullPointerException.class, () -> ch.write(new ByteBuffer[] {one}, 0, 1, 5, null, null));
            ByteBuffer space = ByteBuffer.allocate(4);
            assertThrows(NullPointerException.class, () -> ch.read(new ByteBuffer[] {space, null}));
            assertThrows(IllegalArgumentException.class, () -> ch.read(new ByteBuffer[] {space, readOnly}));
            assertThrows(IndexOutOfBoundsException.class, () -> ch.read(new ByteBuffer[] {space}, -1, 1, null));
            assertThrows(IllegalArgumentException.class, () -> ch.read(space, -1, TimeUnit.SECONDS, null));
            assertThrows(NullPointerException.class, () -> ch.read(space, 5, null, null));
            assertThrows(NullPointerException.class, () -> ch.read(new ByteBuffer[] {space}, 0, 1, 5, null, null));
            assertEquals(0, one.position(), "a refused write moved nothing");
            ch.write(ByteBuffer.wrap(new byte[] {2, 3}));
            Long written = writes.poll(GUARD_SECONDS, TimeUnit.SECONDS);
            assertEquals(2L, written, "the next write");
            assertArrayEquals(new byte[] {2, 3}, s.getInputStream().readNBytes(2), "only the next write's bytes");
            ch.read(space);
            s.getOutputStream().write(new byte[] {4, 5});
            long got = nextRead(reads);
            while (got > 0 && got < 2) {
                ch.read(space);
                got += nextRead(reads);
            }
            assertEquals(2, got, "the next read");
            assertArrayEquals(new byte[] {4, 5, 0, 0}, space.array());
            assertTrue(reads.isEmpty() && writes.isEmpty(), "no refused operation completed");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void operationsOnAClosedChannelCompleteWithClosedChannelException(ProactorConfig config) throws Exception {
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(3);
        AsynchHandler h = new AsynchHandler() {
            @Override
            public void onReadCompleted(OpRead op) {
                errors.add(op.getError());
                done.countDown();
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                errors.add(op.getError());
                done.countDown();
            }

            @Override
            public void onConnectCompleted(OpConnect op) {
                errors.add(op.getError());
                done.countDown();
            }
        };
        try (Demultiplexor demux = open(config)) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.close();
            ch.close(); // idempotent
            ch.read(ByteBuffer.allocate(4));
            ch.write(ByteBuffer.allocate(4));
            ch.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), 9));
            await(done, "completions on a closed channel");
            assertEquals(3, errors.size());
            for (Throwable t : errors) {
                assertInstanceOf(ClosedChannelException.class, t);
            }
            assertThrows(ClosedChannelException.class, ch::shutdownOutput);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void seedConstructorWrapsAJdkSocketChannel(ProactorConfig config) throws Exception {
        try (Demultiplexor demux = open(config); TestServer server = new TestServer(demux, () -> new EchoHandler(64))) {
            CountDownLatch echoed = new CountDownLatch(1);
            ByteBuffer in = ByteBuffer.allocate(5);
            AtomicReference<AsynchChannel> self = new AtomicReference<>();
            AsynchHandler h = new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                    if (in.hasRemaining() && op.isSuccess() && !op.isEndOfStream()) {
                        self.get().read(in);
                    } else {
                        echoed.countDown();
                    }
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                    assertNull(op.getError());
                }
            };
            SocketChannel jdk = SocketChannel.open(server.address()); // blocking, connected
            AsynchChannel ch = new AsynchChannel(demux, h, jdk);
            self.set(ch);
            ch.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)));
            ch.read(in);
            await(echoed, "echo through the seed constructor");
            assertEquals("hello", new String(in.array(), StandardCharsets.US_ASCII));
            assertFalse(jdk.isBlocking());
            ch.close();
            assertFalse(jdk.isOpen());
        }
    }
}
