package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.EngineProvider;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import dev.proactor.tls.TlsTruncationException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TlsChannel} on real sockets, run by every engine module: a concrete subclass names its engine
 * ({@link EngineUnderTest}). Waits are hang guards only; nothing asserts on timing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class TlsConformanceTest {

    /** Row {@code TLS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.TLS, test);
    }

    private static final long GUARD_SECONDS = 60;
    private static final String NAME = "[{index}] {0}";

    private static void assumeAvailable(ProactorConfig config) {
        EngineProvider p = ConformanceMatrix.provider(config.engine());
        assumeTrue(p.isAvailable(), () -> "engine " + config.engine() + " unavailable: " + p.unavailabilityCause());
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(GUARD_SECONDS, TimeUnit.SECONDS);
    }

    private static Throwable awaitFailure(CompletableFuture<?> f) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(GUARD_SECONDS, TimeUnit.SECONDS));
        return e.getCause();
    }

    private static Object nextOutcome(TlsEchoServer server) throws InterruptedException {
        Object o = server.outcomes.poll(GUARD_SECONDS, TimeUnit.SECONDS);
        assertTrue(o != null, "hang guard: the server connection never ended");
        return o;
    }

    private static Supplier<SSLEngine> serverEngines(SSLContext ctx, String protocol, String... alpn) {
        return () -> {
            SSLEngine e = ctx.createSSLEngine();
            e.setUseClientMode(false);
            SSLParameters p = e.getSSLParameters();
            if (protocol != null) {
                p.setProtocols(new String[] {protocol});
            }
            p.setApplicationProtocols(alpn);
            e.setSSLParameters(p);
            return e;
        };
    }

    private static SSLEngine clientEngine(SSLContext ctx, String protocol, String... alpn) {
        SSLEngine e = ctx.createSSLEngine("localhost", 0);
        e.setUseClientMode(true);
        SSLParameters p = e.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name localhost
        if (protocol != null) {
            p.setProtocols(new String[] {protocol});
        }
        p.setApplicationProtocols(alpn);
        e.setSSLParameters(p);
        return e;
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    // ------------------------------------------------------------------------------------------------ echo

    /**
     * Both sides on the proactor: handshake with ALPN, 300 KB in gathering 64 KiB writes echoed through a
     * 1000-byte buffer (records larger than the reads), then close_notify from the client, answered by the
     * server's: the client reads end-of-stream after every byte, the server saw the client's close_notify.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void echoesOverTls13WithAlpnAndCloseNotifyBothWays(ProactorConfig config) throws Exception {
        echo(config, "TLSv1.3", TlsTestCertificates.rsa());
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void echoesOverTls12WithAnEcKey(ProactorConfig config) throws Exception {
        echo(config, "TLSv1.2", TlsTestCertificates.ec());
    }

    private void echo(ProactorConfig config, String protocol, TlsTestCertificates certs) throws Exception {
        assumeAvailable(config);
        byte[] payload = randomBytes(300_000, 7);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux,
                     serverEngines(certs.serverContext(), protocol, "echo/2", "http/1.1"))) {
            TlsEchoClient client = new TlsEchoClient(demux, server.address(),
                    clientEngine(certs.clientContext(), null, "http/1.1", "echo/2"), payload, 64 * 1024);
            TlsChannel ch = await(client.handshake);
            assertEquals(protocol, ch.getSession().getProtocol());
            assertEquals("echo/2", ch.getApplicationProtocol(), "the server's preference among the offered");
            assertArrayEquals(payload, await(client.result));
            assertEquals(protocol + " echo/2", server.protocols.poll(GUARD_SECONDS, TimeUnit.SECONDS));
            assertEquals("eof", nextOutcome(server));
        }
    }

    // ------------------------------------------------------------------------------------------------ failures

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anUntrustedCertificateFailsTheHandshakeOnBothSides(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux,
                     serverEngines(TlsTestCertificates.stranger().serverContext(), null))) {
            TlsEchoClient client = new TlsEchoClient(demux, server.address(),
                    clientEngine(TlsTestCertificates.rsa().clientContext(), null), new byte[10], 10);
            assertInstanceOf(SSLHandshakeException.class, awaitFailure(client.handshake));
            assertInstanceOf(SSLException.class, nextOutcome(server), "the server learns it from the alert");
        }
    }

    /** A trusted certificate for another name: endpoint identification fails the client's handshake. */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aCertificateForAnotherHostFailsTheHandshake(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            SSLEngine engine = certs.clientContext().createSSLEngine("proactor.example", 443);
            engine.setUseClientMode(true);
            SSLParameters p = engine.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(p);
            TlsEchoClient client = new TlsEchoClient(demux, server.address(), engine, new byte[10], 10);
            Throwable e = awaitFailure(client.handshake);
            assertInstanceOf(SSLHandshakeException.class, e);
            assertInstanceOf(SSLException.class, nextOutcome(server));
        }
    }

    /**
     * A TLS operation completed off the demultiplexor's threads (here: a write on a closed channel, from this
     * thread) is dispatched through a posted completion; a demultiplexor closed before it ran still runs it, once.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void everyStartedOperationCompletesOnceAlsoWhenTheDemultiplexorCloses(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        AtomicInteger handshakes = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        TlsHandler handler = new TlsHandler() {
            @Override
            public void onHandshakeCompleted(TlsOp op) {
                handshakes.incrementAndGet();
            }

            @Override
            public void onReadCompleted(TlsOp op) {
            }

            @Override
            public void onWriteCompleted(TlsOp op) {
                writes.incrementAndGet();
                errors.add(op.getError());
            }
        };
        try (java.nio.channels.ServerSocketChannel peer = java.nio.channels.ServerSocketChannel.open()) {
            peer.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            Demultiplexor demux = Demultiplexor.open(config); // not started: this thread drives it
            try {
                TlsChannel tls = TlsChannel.connect(demux, peer.getLocalAddress(),
                        clientEngine(TlsTestCertificates.rsa().clientContext(), null), handler, null);
                tls.close();
                for (int i = 0; i < 6000 && handshakes.get() == 0; i++) {
                    demux.handleEvents(10, TimeUnit.MILLISECONDS); // the socket's own completions, if any
                }
                assertEquals(1, handshakes.get(), "hang guard: the handshake ends with the close");
                tls.write(ByteBuffer.wrap(new byte[] {1}), null); // completes at once: its callback is posted
            } finally {
                demux.close();
            }
        }
        assertEquals(1, writes.get(), "the write's callback, posted before the demultiplexor closed, never ran");
        assertInstanceOf(java.nio.channels.ClosedChannelException.class, errors.get(0));
    }

    /** The engine's delegated tasks run on the executor given, and the handshake goes on when they are done. */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void delegatedTasksRunOnTheGivenExecutor(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        AtomicInteger tasks = new AtomicInteger();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            CompletableFuture<Throwable> done = new CompletableFuture<>();
            TlsChannel.connect(demux, server.address(), clientEngine(certs.clientContext(), null), task -> {
                tasks.incrementAndGet();
                pool.execute(task);
            }, new TlsHandler() {
                @Override
                public void onHandshakeCompleted(TlsOp op) {
                    done.complete(op.getError());
                    op.getChannel().close();
                }

                @Override
                public void onReadCompleted(TlsOp op) {
                }

                @Override
                public void onWriteCompleted(TlsOp op) {
                }
            }, null);
            assertEquals(null, await(done));
            assertTrue(tasks.get() > 0, "the JDK engine delegates certificate checks and key exchange");
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void noCommonProtocolFailsTheHandshake(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), "TLSv1.3"))) {
            TlsEchoClient client = new TlsEchoClient(demux, server.address(),
                    clientEngine(certs.clientContext(), "TLSv1.2"), new byte[10], 10);
            assertInstanceOf(SSLHandshakeException.class, awaitFailure(client.handshake));
            assertInstanceOf(SSLException.class, nextOutcome(server));
        }
    }

    /** A client speaking plain text to the TLS port fails its handshake; the server goes on serving others. */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aPlainTextClientIsRefusedAndTheServerGoesOn(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            try (Socket plain = new Socket(server.address().getAddress(), server.address().getPort())) {
                plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertInstanceOf(SSLException.class, nextOutcome(server));
                plain.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                byte[] rest = plain.getInputStream().readAllBytes(); // an alert at most, then the end
                assertTrue(rest.length < 100, "no more than an alert: " + rest.length);
            }
            byte[] payload = randomBytes(5000, 3);
            TlsEchoClient client = new TlsEchoClient(demux, server.address(),
                    clientEngine(certs.clientContext(), null), payload, 1000);
            assertArrayEquals(payload, await(client.result));
        }
    }

    /** The peer vanishes in the middle of a record: the server's read fails with a truncation, not an EOF. */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aPeerClosingMidRecordIsATruncationError(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null));
             ChunkingProxy proxy = new ChunkingProxy(server.address(), 1000)) {
            try (SSLSocket s = (SSLSocket) certs.clientContext().getSocketFactory()
                    .createSocket(proxy.address().getAddress(), proxy.address().getPort())) {
                s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                OutputStream out = s.getOutputStream();
                // One echoed round trip first: under TLS 1.3 the client's handshake ends before its Finished has
                // crossed the proxy, and the cut must fall in an application record, not in the handshake.
                byte[] probe = randomBytes(16, 4);
                out.write(probe);
                out.flush();
                assertArrayEquals(probe, s.getInputStream().readNBytes(probe.length));
                proxy.cutNext();
                out.write(randomBytes(900, 5));
                out.flush();
                Object outcome = nextOutcome(server);
                assertInstanceOf(TlsTruncationException.class, outcome);
                assertTrue(((Throwable) outcome).getMessage().contains("middle of a record"),
                        ((Throwable) outcome).getMessage());
            }
        }
    }

    /**
     * Records cut into 1000-byte pieces on the way to the server (a JDK SSLSocket client through a proxy); a
     * client closing the socket without close_notify afterwards is a truncation at a record boundary.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void recordsSplitAcrossReadsAndAnAbruptCloseAtARecordBoundary(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        byte[] payload = randomBytes(100_000, 11);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            ChunkingProxy proxy = new ChunkingProxy(server.address(), 1000);
            SSLSocket s = (SSLSocket) certs.clientContext().getSocketFactory()
                    .createSocket(proxy.address().getAddress(), proxy.address().getPort());
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(payload);
                    s.getOutputStream().flush();
                } catch (Exception e) {
                    // the reader below fails then
                }
            });
            writer.start();
            byte[] echoed = s.getInputStream().readNBytes(payload.length);
            writer.join();
            assertArrayEquals(payload, echoed);
            proxy.close(); // the TCP connections end, no close_notify was sent
            assertInstanceOf(TlsTruncationException.class, nextOutcome(server));
            s.close();
        }
    }

    /** Plaintext bytes of each record {@link #sendThreeRecordsTogether} sends. */
    private static final int RECORD_PLAINTEXT = 100;

    /** What a test checks after {@link #sendThreeRecordsTogether}. */
    private interface ThreeRecordsCheck {
        void check(TlsEchoServer server, SSLSocket client, byte[] payload) throws Exception;
    }

    /**
     * Handshakes a JDK {@code SSLSocket} client (TLS 1.3) with a {@link TlsEchoServer} through a proxy, then writes
     * three records of {@link #RECORD_PLAINTEXT} bytes that the proxy forwards in one write, so that they reach
     * the server together (the last byte flipped when {@code corruptLast}: the third record's tag breaks).
     */
    private void sendThreeRecordsTogether(ProactorConfig config, boolean corruptLast, ThreeRecordsCheck check)
            throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        int ciphertext = RECORD_PLAINTEXT + 1 + 16 + 5; // TLS 1.3 AEAD: inner content type, tag, record header
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), "TLSv1.3"));
             ChunkingProxy proxy = new ChunkingProxy(server.address(), 64 * 1024);
             SSLSocket s = (SSLSocket) certs.clientContext().getSocketFactory()
                     .createSocket(proxy.address().getAddress(), proxy.address().getPort())) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            s.startHandshake();
            assertEquals("TLSv1.3 ", server.protocols.poll(GUARD_SECONDS, TimeUnit.SECONDS));
            proxy.gatherNext(3 * ciphertext, corruptLast);
            byte[] payload = randomBytes(3 * RECORD_PLAINTEXT, 13);
            for (int i = 0; i < 3; i++) {
                s.getOutputStream().write(payload, i * RECORD_PLAINTEXT, RECORD_PLAINTEXT); // one record each
            }
            check.check(server, s, payload);
        }
    }

    /**
     * Records that reach the server together are read together: one read takes the plaintext of every complete
     * record buffered, as far as its buffer holds, instead of one record per read (three TLS 1.3 records of 100
     * bytes, forwarded by the proxy in one write, echoed through a 1000-byte buffer).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void recordsReceivedTogetherCompleteOneRead(ProactorConfig config) throws Exception {
        sendThreeRecordsTogether(config, false, (server, client, payload) -> {
            assertArrayEquals(payload, client.getInputStream().readNBytes(payload.length));
            assertEquals(List.of((long) payload.length), List.copyOf(server.readSizes));
        });
    }

    /**
     * A record that fails its integrity check after good ones arrived with it fails the channel only after the
     * plaintext of the good ones was read: the read completes with those 200 bytes, the operation started after it
     * fails with a {@link ClosedChannelException} whose cause is the {@link SSLException}.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aCorruptRecordAfterGoodOnesFailsOnlyAfterTheirPlaintextWasRead(ProactorConfig config) throws Exception {
        sendThreeRecordsTogether(config, true, (server, client, payload) -> {
            // the echo of those 200 bytes is started after the failure: closed, with the failure as the cause
            Object outcome = nextOutcome(server);
            assertInstanceOf(ClosedChannelException.class, outcome);
            assertInstanceOf(SSLException.class, ((Throwable) outcome).getCause());
            assertEquals(List.of(2L * RECORD_PLAINTEXT), List.copyOf(server.readSizes));
        });
    }

    // ------------------------------------------------------------------------------------------------ scale

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void manyConcurrentHandshakes(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.ec();
        int n = 40;
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            List<TlsEchoClient> clients = new ArrayList<>();
            List<byte[]> payloads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] p = randomBytes(2000 + i, i);
                payloads.add(p);
                clients.add(new TlsEchoClient(demux, server.address(), clientEngine(certs.clientContext(), null), p,
                        1500));
            }
            for (int i = 0; i < n; i++) {
                assertArrayEquals(payloads.get(i), await(clients.get(i).result), "client " + i);
            }
            for (int i = 0; i < n; i++) {
                assertEquals("eof", nextOutcome(server));
            }
        }
    }

    /**
     * An idle connection (handshake done, one small message echoed, a read pending on each side) keeps a small
     * buffer for the ciphertext it may receive and nothing for sending or for plaintext: those are taken from the
     * spare buffers while used and given back, and the receive buffer starts at 4 KiB and grows only when reads
     * fill it. Measured as the process's direct memory per channel, after the connections were opened one after
     * the other (so that at most a few spare buffers were ever in use at once); before, every channel kept a
     * receive and a two-record send buffer for its whole life, three packets' worth (50 KB).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anIdleConnectionKeepsOnlyASmallReceiveBuffer(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        assumeTrue(config.leader() == LeaderMode.SHARED, "the buffers do not depend on the dispatcher's settings");
        TlsTestCertificates certs = TlsTestCertificates.ec();
        int n = 24;
        List<TlsChannel> clients = new ArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            IdleClient warm = new IdleClient(demux, server.address(), clientEngine(certs.clientContext(), null));
            await(warm.echoed); // the first connection's buffers (and the engine's) are in before the baseline
            clients.add(warm.channel);
            long before = DirectMemory.settled();
            int packet = warm.channel.getSession().getPacketBufferSize();
            for (int i = 0; i < n; i++) {
                IdleClient c = new IdleClient(demux, server.address(), clientEngine(certs.clientContext(), null));
                await(c.echoed);
                clients.add(c.channel);
            }
            long perChannel = (DirectMemory.settled() - before) / (2L * n);
            assertTrue(perChannel <= 6 * 1024, "direct memory per idle TLS channel: " + perChannel
                    + " bytes (a packet is " + packet + "); the receive buffer starts at 4 KiB");
            for (TlsChannel c : clients) {
                c.close();
            }
        }
    }

    /** Handshakes, sends one message, reads its echo, then stays idle with a read pending. */
    private static final class IdleClient implements TlsHandler {
        final CompletableFuture<Void> echoed = new CompletableFuture<>();
        final TlsChannel channel;
        private final ByteBuffer in = ByteBuffer.allocate(1000);
        private final byte[] message = "idle after this".getBytes(StandardCharsets.US_ASCII);

        IdleClient(Demultiplexor demux, java.net.SocketAddress server, SSLEngine engine) throws Exception {
            channel = TlsChannel.connect(demux, server, engine, this, null);
        }

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                echoed.completeExceptionally(op.getError());
                return;
            }
            op.getChannel().read(in, null);
            op.getChannel().write(ByteBuffer.wrap(message), null);
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                echoed.completeExceptionally(op.isSuccess() ? new java.io.EOFException() : op.getError());
                return;
            }
            if (in.position() < message.length) {
                op.getChannel().read(in, null);
                return;
            }
            op.getChannel().read(ByteBuffer.allocate(1000), null); // stays pending: the connection is idle
            echoed.complete(null);
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            if (!op.isSuccess()) {
                echoed.completeExceptionally(op.getError());
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ API rules

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void misuseThrowsAndCloseCompletesPendingOperations(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             TlsEchoServer server = new TlsEchoServer(demux, serverEngines(certs.serverContext(), null))) {
            CompletableFuture<Throwable> handshake = new CompletableFuture<>();
            CompletableFuture<Throwable> read = new CompletableFuture<>();
            TlsHandler h = new TlsHandler() {
                @Override
                public void onHandshakeCompleted(TlsOp op) {
                    handshake.complete(op.getError());
                }

                @Override
                public void onReadCompleted(TlsOp op) {
                    read.complete(op.getError());
                }

                @Override
                public void onWriteCompleted(TlsOp op) {
                }
            };
            SocketChannel sc = SocketChannel.open(server.address());
            TlsChannel tls = TlsChannel.wrap(demux, sc, clientEngine(certs.clientContext(), null),
                    Runnable::run, h);
            assertThrows(IllegalStateException.class, () -> tls.read(ByteBuffer.allocate(10), null));
            assertThrows(IllegalStateException.class, () -> tls.write(ByteBuffer.allocate(10), null));
            assertThrows(IllegalArgumentException.class, () -> tls.read(ByteBuffer.allocate(0), null));
            tls.handshake(null);
            assertThrows(IllegalStateException.class, () -> tls.handshake(null));
            assertEquals(null, await(handshake));
            tls.read(ByteBuffer.allocate(10), null); // the server sends nothing: pending until the close
            tls.close();
            assertInstanceOf(AsynchronousCloseException.class, await(read));
            assertTrue(!tls.isOpen());
        }
    }
}
