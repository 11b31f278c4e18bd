package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.NotifyLevel;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.spi.EngineProvider;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The io_uring engine's rules for descriptors at close, a full submission queue and the threads that submit, on
 * every wait strategy, thread count and leader mode. Waits are hang guards only; nothing asserts on timing.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IoUringSubmissionRulesTest {

    private static final long GUARD_SECONDS = 60;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    static Stream<ProactorConfig> configurations() {
        return ConfigurationTable.configurations(Suite.URING_SUBMISSION_RULES, IoUringEngineProvider.NAME);
    }

    private static void assumeAvailable(ProactorConfig config) {
        EngineProvider p = ConformanceMatrix.provider(config.engine());
        assumeTrue(p.isAvailable(), () -> "engine " + config.engine() + " unavailable: " + p.unavailabilityCause());
    }

    /** A demultiplexor whose ring has {@code entries} submission queue entries. */
    private static Demultiplexor open(ProactorConfig config, int entries) throws Exception {
        String before = System.getProperty(IoUringFeatures.ENTRIES_PROPERTY);
        System.setProperty(IoUringFeatures.ENTRIES_PROPERTY, Integer.toString(entries));
        try {
            return Demultiplexor.open(config).start();
        } finally {
            if (before == null) {
                System.clearProperty(IoUringFeatures.ENTRIES_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.ENTRIES_PROPERTY, before);
            }
        }
    }

    /** Records every completion of its channels as a future per attachment (an Integer index). */
    private static final class Futures implements AsynchHandler {
        final List<CompletableFuture<Object>> results = new ArrayList<>();

        Futures(int n) {
            for (int i = 0; i < n; i++) {
                results.add(new CompletableFuture<>());
            }
        }

        private void done(Object attachment, Throwable error, Object value) {
            if (!(attachment instanceof Integer i) || i < 0) {
                return; // not recorded
            }
            CompletableFuture<Object> f = results.get(i);
            if (error != null) {
                f.complete(error);
            } else {
                f.complete(value);
            }
        }

        Object await(int i) throws Exception {
            return results.get(i).get(GUARD_SECONDS, TimeUnit.SECONDS);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            done(op.getAttachment(), op.getError(), op.getBytesCompleted());
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            done(op.getAttachment(), op.getError(), op.getBytesCompleted());
        }

        @Override
        public void onAcceptCompleted(OpAccept op) {
            try {
                done(op.getAttachment(), op.getError(), op.getError() == null ? op.adopt(this) : null);
            } catch (java.io.IOException e) {
                done(op.getAttachment(), e, null);
            }
        }

        @Override
        public void onConnectCompleted(OpConnect op) {
            done(op.getAttachment(), op.getError(), "connected");
        }

        @Override
        public void onReceiveCompleted(OpReceive op) {
            done(op.getAttachment(), op.getError(), op.getBytesCompleted());
        }
    }

    // ------------------------------------------------------------------------- descriptors at close

    /**
     * Writes are started and their channels closed at once, again and again, while the leader submits; every
     * closed descriptor's number is taken at once by a new connection to a second server, which must never
     * receive a byte: a SEND submitted after the close would reach it.
     */
    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("configurations")
    void noRequestReachesADescriptorNumberReusedAfterClose(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        int rounds = 300;
        Futures h = new Futures(rounds);
        try (Demultiplexor demux = open(config, 4096);
             ServerSocketChannel first = ServerSocketChannel.open().bind(LOOPBACK, rounds + 16);
             ServerSocketChannel second = ServerSocketChannel.open().bind(LOOPBACK, rounds + 16)) {
            List<SocketChannel> reusers = new ArrayList<>();
            List<SocketChannel> firstPeers = new ArrayList<>();
            try {
                for (int i = 0; i < rounds; i++) {
                    AsynchChannel ch = AsynchChannel.openSocket(demux, h);
                    ch.connect(first.getLocalAddress(), -1 - i); // negative: not recorded
                    firstPeers.add(first.accept());
                    ByteBuffer old = ByteBuffer.allocateDirect(64);
                    ch.write(old, i);
                    ch.close();
                    SocketChannel reuser = SocketChannel.open(second.getLocalAddress()); // likely the same number
                    reusers.add(reuser);
                }
                for (int i = 0; i < rounds; i++) {
                    h.await(i); // every write ends (written before the close, or closed)
                }
                second.configureBlocking(false);
                ByteBuffer probe = ByteBuffer.allocate(64);
                int leaked = 0;
                for (SocketChannel accepted = second.accept(); accepted != null; accepted = second.accept()) {
                    accepted.configureBlocking(false);
                    probe.clear();
                    int n = accepted.read(probe);
                    if (n > 0) {
                        leaked += n;
                    }
                    accepted.close();
                }
                assertEquals(0, leaked, "bytes written on a closed channel reached a connection that reused its"
                        + " descriptor number");
            } finally {
                for (SocketChannel c : reusers) {
                    c.close();
                }
                for (SocketChannel c : firstPeers) {
                    c.close();
                }
            }
        }
    }

    /**
     * A listening channel with accepts in flight, closed: the port is free when close returns (a new listener binds
     * it at once), although the kernel's ACCEPT requests still hold the socket until their cancel completes.
     */
    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("configurations")
    void closingAListenerWithAcceptsInFlightFreesItsPortBeforeCloseReturns(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Futures h = new Futures(1);
        try (Demultiplexor demux = open(config, 4096)) {
            for (int round = 0; round < 50; round++) {
                AsynchChannel listener = AsynchChannel.openServer(demux, h, LOOPBACK, 16);
                for (int i = 0; i < 4; i++) {
                    listener.accept(-1);
                }
                InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
                listener.close();
                try (ServerSocketChannel next = ServerSocketChannel.open()) {
                    next.bind(address); // throws BindException if the closed listener still listens
                }
            }
        }
    }

    // ------------------------------------------------------------------------- full submission queue

    /** With a two-entry submission queue, many more reads than entries start, time out and are cancelled. */
    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("configurations")
    void aFullSubmissionQueueNeitherFailsNorLosesStartsAndCancels(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        int n = 64;
        Futures h = new Futures(3 * n);
        try (Demultiplexor demux = open(config, 2);
             ServerSocketChannel server = ServerSocketChannel.open().bind(LOOPBACK, 2 * n)) {
            List<AsynchChannel> channels = new ArrayList<>();
            List<SocketChannel> peers = new ArrayList<>();
            try {
                connect(demux, server, h, n, 2 * n, channels, peers);
                for (int i = 0; i < n; i++) { // timed reads: their cancels must not be lost
                    channels.get(i).read(ByteBuffer.allocateDirect(16), 1, TimeUnit.MILLISECONDS, i);
                }
                for (int i = 0; i < n; i++) {
                    assertInstanceOf(InterruptedByTimeoutException.class, h.await(i), "timed read " + i);
                }
                for (int i = 0; i < n; i++) { // reads left pending, then closed: every one completes
                    channels.get(i).read(ByteBuffer.allocateDirect(16), n + i);
                }
                for (AsynchChannel ch : channels) {
                    ch.close();
                }
                for (int i = 0; i < n; i++) {
                    assertInstanceOf(AsynchronousCloseException.class, h.await(n + i), "read " + i);
                }
            } finally {
                for (SocketChannel p : peers) {
                    p.close();
                }
            }
        }
    }

    /**
     * Owner mode: one thread owns a single-issuer ring and is the only one that may submit. While it is busy in a
     * handler, a user thread starts more reads than the submission queue holds: the starts neither wait for room
     * (the owner may itself be waiting for a monitor the starting thread holds, as when a timeout of the same
     * channel fires) nor fail; once the owner is back, every read is submitted, in order, and completes.
     */
    @Test
    void startsBeyondAFullQueueOfAnOwnedRingNeitherWaitForTheOwnerNorFail() throws Exception {
        ProactorConfig config = ProactorConfig.builder().engine(IoUringEngineProvider.NAME).threads(1)
                .leader(LeaderMode.OWNER).build();
        assumeAvailable(config);
        int n = 8;
        Futures h = new Futures(2 * n);
        CountDownLatch ownerBusy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Demultiplexor demux = open(config, 2);
             ServerSocketChannel server = ServerSocketChannel.open().bind(LOOPBACK, 2 * n)) {
            List<AsynchChannel> channels = new ArrayList<>();
            List<SocketChannel> peers = new ArrayList<>();
            try {
                connect(demux, server, h, n, n, channels, peers);
                demux.post(demux.newTimer(new AsynchHandler() {
                    @Override
                    public void onReadCompleted(OpRead op) {
                    }

                    @Override
                    public void onWriteCompleted(OpWrite op) {
                    }

                    @Override
                    public void onTimerCompleted(OpTimer op) throws InterruptedException {
                        ownerBusy.countDown();
                        release.await(GUARD_SECONDS, TimeUnit.SECONDS);
                    }
                }), NotifyLevel.STRONG);
                assertTrue(ownerBusy.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the owner ran the timer");
                try {
                    for (int i = 0; i < n; i++) { // the ring holds 2; nobody submits until the owner is back
                        channels.get(i).read(ByteBuffer.allocateDirect(16), i);
                    }
                } finally {
                    release.countDown();
                }
                for (int i = 0; i < n; i++) {
                    peers.get(i).write(ByteBuffer.wrap(new byte[] {(byte) i}));
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(1L, h.await(i), "read " + i);
                }
            } finally {
                for (SocketChannel p : peers) {
                    p.close();
                }
            }
        }
    }

    /**
     * Connects {@code n} channels to {@code server} (connect {@code i} recorded at attachment {@code first + i}),
     * adding them and the accepted peers to the lists.
     */
    private static void connect(Demultiplexor demux, ServerSocketChannel server, Futures h, int n, int first,
                                List<AsynchChannel> channels, List<SocketChannel> peers) throws Exception {
        for (int i = 0; i < n; i++) {
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            ch.connect(server.getLocalAddress(), first + i);
            peers.add(server.accept());
            channels.add(ch);
        }
        for (int i = 0; i < n; i++) {
            assertEquals("connected", h.await(first + i), "connect " + i);
        }
    }

    // ------------------------------------------------------------------------- submitting threads

    /** Runs {@code start} on a new thread and waits until that thread has exited. */
    private static void onAThreadThatExits(Runnable start) throws Exception {
        Thread t = new Thread(start, "short-lived-starter");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        assertTrue(!t.isAlive(), "hang guard: the starting thread ends");
        Thread.sleep(20); // let the kernel run its exit-time cancellation, if it had anything of that thread's
    }

    /**
     * Each kind of operation is started by a user thread that exits before the operation can complete; the
     * operation completes as if the thread were still alive (no ECANCELED, no second attempt).
     */
    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("configurations")
    void operationsOutliveTheUserThreadThatStartedThem(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Futures h = new Futures(8);
        try (Demultiplexor demux = open(config, 4096)) {
            // accept
            AsynchChannel listener = AsynchChannel.openServer(demux, h, LOOPBACK, 16);
            onAThreadThatExits(() -> listener.accept(0));
            try (Socket client = new Socket()) {
                client.connect(listener.getLocalAddress());
                assertInstanceOf(AsynchChannel.class, h.await(0), "accept");
                // read (recv in the ring)
                AsynchChannel accepted = (AsynchChannel) h.await(0);
                onAThreadThatExits(() -> accepted.read(ByteBuffer.allocateDirect(8), 1));
                client.getOutputStream().write(new byte[] {1, 2, 3});
                assertEquals(3L, h.await(1), "read");
                // write to a full socket (send waits in the ring until the peer reads)
                ByteBuffer big = ByteBuffer.allocateDirect(8 << 20);
                onAThreadThatExits(() -> accepted.write(big, 2));
                byte[] sink = new byte[64 * 1024];
                long drained = 0;
                while (drained < big.capacity()) {
                    int r = client.getInputStream().read(sink);
                    assertTrue(r > 0, "the peer sees the whole write");
                    drained += r;
                }
                assertEquals((long) big.capacity(), h.await(2), "write");
                accepted.close();
            }
            // connect (stays pending while the server's accept queue is full: its SYN is dropped and retried)
            List<Socket> fillers = new ArrayList<>();
            try (ServerSocketChannel full = ServerSocketChannel.open().bind(LOOPBACK, 1)) {
                for (int i = 0; i < 3; i++) {
                    Socket s = new Socket();
                    fillers.add(s);
                    try {
                        s.connect(full.getLocalAddress(), 200);
                    } catch (java.net.SocketTimeoutException queueAlreadyFull) {
                        break;
                    }
                }
                AsynchChannel connecting = AsynchChannel.openSocket(demux, h);
                java.net.SocketAddress fullAddress = full.getLocalAddress();
                onAThreadThatExits(() -> connecting.connect(fullAddress, 3));
                full.accept().close(); // room in the queue: the retried SYN gets through
                assertEquals("connected", h.await(3), "connect");
                connecting.close();
            } finally {
                for (Socket s : fillers) {
                    s.close();
                }
            }
            // datagram receive
            AsynchChannel datagrams = AsynchChannel.openDatagram(demux, h, LOOPBACK);
            java.net.SocketAddress datagramAddress = datagrams.getLocalAddress();
            onAThreadThatExits(() -> datagrams.receive(ByteBuffer.allocateDirect(64), 4));
            try (DatagramChannel sender = DatagramChannel.open()) {
                sender.send(ByteBuffer.wrap(new byte[] {9, 9}), datagramAddress);
            }
            assertEquals(2L, h.await(4), "receive");
            datagrams.close();
            listener.close();
        }
    }
}
