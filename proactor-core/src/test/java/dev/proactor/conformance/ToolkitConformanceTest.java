package dev.proactor.conformance;

import static dev.proactor.conformance.ToolkitTesting.assumeAvailable;
import static dev.proactor.conformance.ToolkitTesting.await;
import static dev.proactor.conformance.ToolkitTesting.client;
import static dev.proactor.conformance.ToolkitTesting.eventually;
import static dev.proactor.conformance.ToolkitTesting.loopback;
import static dev.proactor.conformance.ToolkitTesting.readByte;
import static dev.proactor.conformance.ToolkitTesting.roundTrip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.conformance.ToolkitTesting.EchoService;
import dev.proactor.tls.TlsChannel;
import dev.proactor.tls.TlsHandler;
import dev.proactor.tls.TlsOp;
import dev.proactor.toolkit.Acceptor;
import dev.proactor.toolkit.Connector;
import dev.proactor.toolkit.ReadFully;
import dev.proactor.toolkit.Service;
import dev.proactor.toolkit.ShortReadException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The toolkit ({@link Acceptor}, {@link Connector}, {@link ReadFully}) on real sockets, run by every engine
 * module: a concrete subclass names its engine ({@link EngineUnderTest}). Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ToolkitConformanceTest {

    /** Row {@code TOOLKIT} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.TOOLKIT, test);
    }

    private static final String NAME = "[{index}] {0}";

    // ------------------------------------------------------------------------------------------------ Acceptor

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorServesEveryClientKeepsItsAcceptsPostedAndCountsConnections(ProactorConfig config)
            throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> new EchoService(false))
                     .pendingAccepts(3).open()) {
            eventually(() -> acceptor.postedAccepts() == 3, "three accepts posted");
            List<Socket> clients = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                clients.add(client(acceptor.localAddress()));
            }
            for (int i = 0; i < clients.size(); i++) {
                assertEquals("hello " + i, roundTrip(clients.get(i), "hello " + i));
            }
            assertEquals(8, acceptor.openConnections());
            assertEquals(3, acceptor.postedAccepts(), "every accept taken was posted again");
            for (Socket c : clients) {
                c.close();
            }
            eventually(() -> acceptor.openConnections() == 0, "closed connections are counted down");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorNeverExceedsItsConnectionLimitAndAcceptsAgainWhenOneCloses(ProactorConfig config)
            throws Exception {
        assumeAvailable(config);
        AtomicInteger made = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> {
                 made.incrementAndGet();
                 return new EchoService(true);
             }).pendingAccepts(4).maxConnections(2).open()) {
            Socket a = client(acceptor.localAddress());
            assertEquals('H', readByte(a));
            try (Socket b = client(acceptor.localAddress())) {
                assertEquals('H', readByte(b));
                try (Socket c = client(acceptor.localAddress())) {
                    assertEquals(2, acceptor.openConnections());
                    assertEquals(0, acceptor.postedAccepts(), "no accept posted at the limit: c waits in the backlog");
                    assertEquals(2, made.get());

                    a.close(); // its service sees end of stream and closes: one place frees up
                    assertEquals('H', readByte(c), "the waiting client is served once a connection closed");
                    assertEquals(3, made.get());
                }
            }
            a.close();
            eventually(() -> acceptor.openConnections() == 0, "every close counted");
        }
    }

    /** Answers 'B' ("busy") and closes once it is written: the service of connections beyond the limit. */
    private static final class Busy implements Service {
        private volatile AsynchChannel channel;

        @Override
        public void start(AsynchChannel ch) {
            channel = ch;
            ch.write(ByteBuffer.wrap(new byte[] {'B'}));
        }

        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            channel.close();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorHandsConnectionsBeyondTheLimitToTheRejectService(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> new EchoService(true))
                     .pendingAccepts(2).maxConnections(1).rejectWith(Busy::new).open()) {
            Socket a = client(acceptor.localAddress());
            assertEquals('H', readByte(a));
            try (Socket b = client(acceptor.localAddress())) {
                assertEquals('B', readByte(b), "accepted beyond the limit and told it is busy");
                assertEquals(-1, readByte(b), "then closed");
            }
            assertEquals(1, acceptor.openConnections());
            assertEquals(1, acceptor.rejectedConnections());
            eventually(() -> acceptor.rejectingConnections() == 0, "the rejected connection is counted down");
            eventually(() -> acceptor.postedAccepts() == 2, "accepts stay posted at the limit");

            a.close();
            eventually(() -> acceptor.openConnections() == 0, "the served connection is counted down");
            try (Socket c = client(acceptor.localAddress())) {
                assertEquals('H', readByte(c), "served again once below the limit");
            }
            assertEquals(1, acceptor.rejectedConnections());
        }
    }

    /** A TLS echo: {@link Service#adopt} lets a {@link TlsChannel} take the socket; the service talks plaintext. */
    private static final class TlsEchoService implements Service, TlsHandler {
        private final SSLContext context;
        private final ByteBuffer buf = ByteBuffer.allocate(1024);
        private volatile TlsChannel tls;
        volatile AsynchChannel started;

        TlsEchoService(SSLContext context) {
            this.context = context;
        }

        @Override
        public AsynchChannel adopt(OpAccept accepted) throws IOException {
            SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(false);
            tls = TlsChannel.adopt(accepted, engine, this);
            return tls.getTransport();
        }

        @Override
        public void start(AsynchChannel socket) {
            started = socket;
            tls.handshake(null);
            tls.read(buf, null);
        }

        @Override
        public void onHandshakeCompleted(TlsOp op) {
            // a failed handshake fails the pending read too, which closes
        }

        @Override
        public void onReadCompleted(TlsOp op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                tls.close();
                return;
            }
            buf.flip();
            tls.write(buf, null);
        }

        @Override
        public void onWriteCompleted(TlsOp op) {
            buf.clear();
            tls.read(buf, null);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("the TLS layer is the socket's handler");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("the TLS layer is the socket's handler");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorLetsTheServiceAdoptTheConnectionThroughALayer(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        TlsTestCertificates certs = TlsTestCertificates.rsa();
        List<TlsEchoService> services = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> {
                 TlsEchoService s = new TlsEchoService(certs.serverContext());
                 services.add(s);
                 return s;
             }).open()) {
            InetSocketAddress at = acceptor.localAddress();
            try (SSLSocket s = (SSLSocket) certs.clientContext().getSocketFactory()
                    .createSocket(at.getAddress(), at.getPort())) {
                s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(ToolkitTesting.GUARD_SECONDS));
                assertEquals("over tls", roundTrip(s, "over tls"));
                assertEquals(1, acceptor.openConnections());
                assertNotNull(services.get(0).started, "started with the socket under the layer");
            }
            eventually(() -> acceptor.openConnections() == 0, "the layer's close of the socket is counted");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorWithReusePortListenersServesClientsOnOnePort(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> new EchoService(false))
                     .listeners(2).pendingAccepts(2).open()) {
            assertEquals(2, acceptor.listenerCount());
            eventually(() -> acceptor.postedAccepts() == 4, "two accepts posted on each listener");
            for (int i = 0; i < 10; i++) {
                try (Socket s = client(acceptor.localAddress())) {
                    assertEquals("reuse " + i, roundTrip(s, "reuse " + i));
                }
            }
        }
    }

    /**
     * A burst of clients larger than the posted accepts, on two reuse-port listeners with four accepts each: every
     * client is served once (an engine that accepts ahead of the application, such as io_uring's multishot accept,
     * loses none and serves none twice).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorWithFourPendingAcceptsOnTwoListenersServesABurstOfClients(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> new EchoService(false))
                     .listeners(2).pendingAccepts(4).open()) {
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 48; i++) {
                    clients.add(client(acceptor.localAddress())); // all connected before any is served
                }
                for (int i = 0; i < clients.size(); i++) {
                    assertEquals("burst " + i, roundTrip(clients.get(i), "burst " + i));
                }
                eventually(() -> acceptor.openConnections() == clients.size(), "each client served once");
            } finally {
                for (Socket c : clients) {
                    c.close();
                }
            }
            eventually(() -> acceptor.openConnections() == 0, "every connection's close is counted");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorCloseStopsAcceptingButLeavesOpenConnectionsServed(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> new EchoService(false)).open();
            try (Socket s = client(acceptor.localAddress())) {
                assertEquals("before", roundTrip(s, "before"));
                acceptor.close();
                acceptor.close(); // idempotent
                eventually(() -> acceptor.postedAccepts() == 0, "the posted accepts complete on close");
                assertEquals("after", roundTrip(s, "after"), "an accepted connection outlives the acceptor");
            }
        }
    }

    /**
     * A server restarting on its port binds it as soon as {@link Acceptor#close()} returned. The plain channel has
     * the JDK's defaults, as a restarting server would (SO_REUSEADDR, which Linux never lets bind beside a socket
     * still listening). Repeated so a close that returns before the socket is released shows up.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorCloseFreesThePortBeforeItReturns(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            InetSocketAddress address = loopback(0);
            for (int round = 0; round < 50; round++) {
                Acceptor acceptor = Acceptor.builder(demux, address, () -> new EchoService(false)).open();
                address = acceptor.localAddress();
                if (round % 2 == 0) { // with a connection served, and without
                    try (Socket s = client(address)) {
                        assertEquals("round " + round, roundTrip(s, "round " + round));
                    }
                }
                acceptor.close();
                assertPortFree(address, "round " + round);
            }
        }
    }

    /**
     * {@link Acceptor#close()} from a service's start, on a demultiplexor thread (with one pool thread and a shared
     * leader it is the only thread that could select), returns without deadlock and with the port free.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorClosedFromAServiceFreesThePortBeforeItReturns(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            InetSocketAddress address = loopback(0);
            for (int round = 0; round < 20; round++) {
                AtomicReference<Acceptor> self = new AtomicReference<>();
                CompletableFuture<String> rebound = new CompletableFuture<>();
                Acceptor acceptor = Acceptor.builder(demux, address, () -> new EchoService(false) {
                    @Override
                    public void start(AsynchChannel ch) {
                        self.get().close();
                        try (ServerSocketChannel plain = ServerSocketChannel.open()) {
                            plain.bind(self.get().localAddress());
                            rebound.complete("bound");
                        } catch (IOException | RuntimeException e) {
                            rebound.completeExceptionally(e);
                        }
                        ch.close();
                    }
                }).open();
                self.set(acceptor);
                address = acceptor.localAddress();
                try (Socket s = client(address)) {
                    assertEquals("bound", rebound.get(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS),
                            "round " + round);
                    assertEquals(-1, readByte(s), "the service closed the connection");
                }
            }
        }
    }

    /**
     * Acceptors closed at the same moment, some from a service's start on a demultiplexor thread and as many from
     * the test's thread: every call returns, each with its port free (no closing thread waits for ever on another's
     * release). Several per side and round, so the two threads often close at the very same time.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorsClosedAtOnceOnTwoThreadsAllFreeTheirPorts(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        int perSide = 8;
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            for (int round = 0; round < 30; round++) {
                List<Acceptor> onHandler = new ArrayList<>();
                List<Acceptor> onCaller = new ArrayList<>();
                for (int i = 0; i < perSide; i++) {
                    onHandler.add(Acceptor.builder(demux, loopback(0), () -> new EchoService(false)).open());
                    onCaller.add(Acceptor.builder(demux, loopback(0), () -> new EchoService(false)).open());
                }
                CyclicBarrier together = new CyclicBarrier(2);
                CompletableFuture<String> rebound = new CompletableFuture<>();
                Acceptor trigger = Acceptor.builder(demux, loopback(0), () -> new EchoService(false) {
                    @Override
                    public void start(AsynchChannel ch) {
                        try {
                            together.await(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS);
                            closeAllAndBindTheirPorts(onHandler, "on the handler");
                            rebound.complete("bound");
                        } catch (Exception | AssertionError e) {
                            rebound.completeExceptionally(e);
                        }
                        ch.close();
                    }
                }).open();
                try (Socket s = client(trigger.localAddress())) {
                    together.await(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS);
                    closeAllAndBindTheirPorts(onCaller, "round " + round + " on the caller");
                    assertEquals("bound", rebound.get(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS),
                            "round " + round);
                    assertEquals(-1, readByte(s), "the service closed the connection");
                } finally {
                    trigger.close();
                }
            }
        }
    }

    private static void closeAllAndBindTheirPorts(List<Acceptor> acceptors, String when) throws IOException {
        for (Acceptor a : acceptors) {
            a.close();
        }
        for (Acceptor a : acceptors) {
            assertPortFree(a.localAddress(), when);
        }
    }

    /** Binds a plain JDK listener with its default options to {@code address}, or fails saying it is in use. */
    private static void assertPortFree(InetSocketAddress address, String when) throws IOException {
        try (ServerSocketChannel plain = ServerSocketChannel.open()) {
            plain.bind(address);
        } catch (java.net.BindException e) {
            throw new AssertionError(when + ": " + address + " still in use after close() returned", e);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorClosesTheConnectionOfAFailingFactoryAndGoesOn(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        AtomicInteger calls = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> {
                 if (calls.incrementAndGet() == 1) {
                     throw new IllegalStateException("test: the first service cannot be made");
                 }
                 return new EchoService(false);
             }).pendingAccepts(1).open()) {
            try (Socket first = client(acceptor.localAddress())) {
                assertEquals(-1, readByte(first), "the connection nobody took is closed");
            }
            try (Socket second = client(acceptor.localAddress())) {
                assertEquals("next", roundTrip(second, "next"));
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptorRefusesBadSettings(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config)) {
            Acceptor.Builder b = Acceptor.builder(demux, loopback(0), () -> new EchoService(false));
            assertThrows(IllegalArgumentException.class, () -> b.pendingAccepts(0));
            assertThrows(IllegalArgumentException.class, () -> b.maxConnections(0));
            assertThrows(IllegalArgumentException.class, () -> b.listeners(0));
            assertThrows(IllegalArgumentException.class, () -> b.backlog(-1));
            assertThrows(NullPointerException.class, () -> Acceptor.builder(demux, null, () -> null));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeListenersRunOnceInOrderAndAtOnceAfterClose(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, new ReadRecorder(0));
            ch.whenClosed(() -> ran.add("first"));
            ch.whenClosed(() -> {
                throw new IllegalStateException("test: a failing listener is logged, the next still runs");
            });
            ch.whenClosed(() -> ran.add("second"));
            ch.close();
            ch.close();
            assertEquals(List.of("first", "second"), ran);
            ch.whenClosed(() -> ran.add("late"));
            assertEquals(List.of("first", "second", "late"), ran, "registered after close: runs at once");
        }
    }

    // ----------------------------------------------------------------------------------------------- Connector

    /** A service that sends one message on start and closes after the write. */
    private static final class Sender implements Service {
        final CountDownLatch written = new CountDownLatch(1);
        volatile AsynchChannel channel;

        @Override
        public void start(AsynchChannel ch) {
            channel = ch;
            ch.write(ByteBuffer.wrap("connected".getBytes()));
        }

        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            written.countDown();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void connectorStartsTheServiceOnSuccessFromTheBindAddress(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Sender sender = new Sender();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(loopback(0));
            InetSocketAddress local = freeLoopbackPort();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            new Connector(demux).timeout(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS).bindAddress(local)
                    .connect(server.getLocalAddress(), () -> sender, (remote, e) -> {
                        failure.set(e);
                        sender.written.countDown();
                    });
            await(sender.written, "the service started and wrote");
            assertNull(failure.get());
            try (SocketChannel peer = server.accept()) {
                assertEquals(local, peer.getRemoteAddress(), "the connector bound to the bind address");
                ByteBuffer in = ByteBuffer.allocate(9);
                while (in.hasRemaining() && peer.read(in) >= 0) {
                    // read the whole message
                }
                assertEquals("connected", new String(in.array()));
            }
            sender.channel.close();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void connectorReportsARefusedConnectAndMakesNoService(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        SocketAddress nobody;
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(loopback(0));
            nobody = probe.getLocalAddress(); // free again once closed: nothing listens there
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        AtomicInteger made = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            new Connector(demux).connect(nobody, () -> {
                made.incrementAndGet();
                return new Sender();
            }, (remote, e) -> {
                failure.set(e);
                failed.countDown();
            });
            await(failed, "the refused connect is reported");
            assertInstanceOf(IOException.class, failure.get());
            assertEquals(0, made.get());
        }
    }

    /**
     * A connect the peer never answers: a listener with a full accept queue drops further SYNs on Linux, so the
     * connect stays pending until the connector's timeout fails it.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void connectorTimesOutAConnectNobodyAnswers(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        List<SocketChannel> fillers = new ArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             ServerSocketChannel full = ServerSocketChannel.open()) {
            full.bind(loopback(0), 1);
            for (int i = 0; i < 8; i++) { // fill the accept queue and the SYN backlog; never accepted
                SocketChannel f = SocketChannel.open();
                f.configureBlocking(false);
                f.connect(full.getLocalAddress());
                fillers.add(f);
            }
            new Connector(demux).timeout(200, TimeUnit.MILLISECONDS)
                    .connect(full.getLocalAddress(), Sender::new, (remote, e) -> {
                        failure.set(e);
                        failed.countDown();
                    });
            await(failed, "the unanswered connect times out");
            assertInstanceOf(InterruptedByTimeoutException.class, failure.get());
        } finally {
            for (SocketChannel f : fillers) {
                f.close();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- ReadFully

    /** Reads exactly the buffer, recording the outcome. */
    private static final class Exact extends ReadRecorder implements ReadFully.Handler {
        final ReadFully readFully = new ReadFully(this);
        final CountDownLatch ended = new CountDownLatch(1);
        volatile long bytes;
        volatile Throwable error;
        volatile boolean full;

        Exact() {
            super(0);
        }

        @Override
        public void onReadCompleted(OpRead op) throws Exception {
            if (ReadFully.continues(op)) {
                return;
            }
            super.onReadCompleted(op);
        }

        @Override
        public void onReadFullyCompleted(ReadFully read) {
            bytes = read.bytesRead();
            error = read.error();
            full = !read.buffer().hasRemaining();
            ended.countDown();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void readFullyCompletesOnlyWhenTheBufferIsFull(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Exact h = new Exact();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(loopback(0));
            try (SocketChannel peer = SocketChannel.open(listener.getLocalAddress())) {
                AsynchChannel ch = new AsynchChannel(demux, h, listener.accept());
                ByteBuffer buf = ByteBuffer.allocateDirect(3000);
                h.readFully.start(ch, buf, "att");
                assertThrows(IllegalStateException.class, () -> h.readFully.start(ch, buf, null));
                for (int i = 0; i < 3; i++) { // three pieces, each flushed on its own
                    ByteBuffer piece = ByteBuffer.allocate(1000);
                    while (piece.hasRemaining()) {
                        peer.write(piece);
                    }
                }
                await(h.ended, "the exact read ends");
                assertEquals(3000, h.bytes);
                assertTrue(h.full);
                assertEquals(null, h.error);
                assertEquals("att", h.readFully.attachment());
                assertTrue(h.readFully.isSuccess());
                assertThrows(IllegalArgumentException.class, () -> h.readFully.start(ch, buf, null));
                ch.close();
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void readFullyEndsWithTheCountReadWhenThePeerClosesFirst(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Exact h = new Exact();
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(loopback(0));
            AsynchChannel ch;
            try (SocketChannel peer = SocketChannel.open(listener.getLocalAddress())) {
                ch = new AsynchChannel(demux, h, listener.accept());
                h.readFully.start(ch, ByteBuffer.allocate(100), null);
                peer.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            }
            await(h.ended, "the exact read ends at end of stream");
            ShortReadException e = assertInstanceOf(ShortReadException.class, h.error);
            assertEquals(4, e.bytesRead());
            assertEquals(4, h.bytes);
            assertNotNull(e.getMessage());
            ch.close();
        }
    }

    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(loopback(0));
            return (InetSocketAddress) probe.getLocalAddress();
        }
    }
}
