package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where an operation that completes as it is started inside a callback is dispatched
 * ({@link AsynchChannel#setChainedCallbacks}): by the callback's thread right after it (chained, at most 16 in a
 * row), or behind the completions of other channels already queued. Each test holds the one dispatching thread of
 * a demultiplexor in a gate callback while it queues completions that all happen at start, then records the order
 * of the callbacks that follow. Run by every engine module: a concrete subclass names
 * its engine ({@link EngineUnderTest}). Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ChainedCallbacksConformanceTest {

    /** Row {@code CHAINED_CALLBACKS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.CHAINED_CALLBACKS, test);
    }

    private static final long GUARD_SECONDS = 60;
    private static final String NAME = "[{index}] {0}";

    /** Callbacks in the recorded orders: an accept, a read of another channel, a receive, a send. */
    private static final String ACCEPT = "A";
    private static final String READ = "R";
    private static final String RECEIVE = "V";
    private static final String SEND = "S";

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + what + " never happened");
    }

    private static ProactorConfig oneThread(ProactorConfig config) {
        ConformanceMatrix.assumeAvailable(config);
        return config.toBuilder().threads(1).build();
    }

    private static List<String> order(String... callbacks) {
        return List.of(callbacks);
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** {@code datagrams} echoes in a row: each receive's callback, then its send's. */
    private static List<String> echoes(int datagrams) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < datagrams; i++) {
            order.add(RECEIVE);
            order.add(SEND);
        }
        return order;
    }

    // ------------------------------------------------------------------------------------ listening sockets

    /**
     * With chaining on, an accept started inside an accept callback, taking a connection already queued in the
     * backlog, is dispatched by the callback's thread right after it, ahead of other channels' completions already
     * queued; off, it queues behind them. A listening channel has it on unless told otherwise: the plain accept loop
     * (accept again in the callback) takes a burst of queued connections in one trip, not one per trip through every
     * session's completions.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aListenersAcceptLoopIsChainedByDefault(ProactorConfig config) throws Exception {
        ProactorConfig oneThread = oneThread(config);
        List<String> chained = order(ACCEPT, ACCEPT, ACCEPT, READ, READ);
        assertEquals(chained, acceptsAmongQueuedReads(oneThread, true, 3), "chained");
        assertEquals(order(ACCEPT, READ, READ, ACCEPT, ACCEPT), acceptsAmongQueuedReads(oneThread, false, 3),
                "queued");
        assertEquals(chained, acceptsAmongQueuedReads(oneThread, null, 3), "a listener's default");
    }

    /**
     * A listener's chain is not cut after 16 callbacks as other channels' are: a burst of queued connections larger
     * than that is taken in one trip, every accept ahead of the completions other channels had queued, as a selector
     * loop accepts until the backlog is empty. Cut at 16, a storm of clients connecting at once while other sessions
     * were busy waited a whole trip through those sessions' completions per 16 connections (10 000 connections took
     * 6-15 s to be served, against the selector loop's 0.4 s), and the backlog overflowed meanwhile.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aListenerTakesABurstOfMoreThanSixteenQueuedConnectionsInOneTrip(ProactorConfig config) throws Exception {
        int burst = 40;
        List<String> expected = new ArrayList<>(Collections.nCopies(burst, ACCEPT));
        expected.add(READ);
        expected.add(READ);
        assertEquals(expected, acceptsAmongQueuedReads(oneThread(config), null, burst));
    }

    /**
     * The order of the callbacks after the gate: {@code connections} accepts of queued connections (each accept
     * started by the previous one's callback), among reads of two other channels queued after the first accept.
     *
     * @param chained the listening channel's {@link AsynchChannel#setChainedCallbacks} setting, null to leave it
     */
    private static List<String> acceptsAmongQueuedReads(ProactorConfig config, Boolean chained, int connections)
            throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(connections + 2);
        List<AsynchChannel> accepted = new CopyOnWriteArrayList<>();
        AsynchChannel[] server = new AsynchChannel[1];
        AsynchHandler handler = new Recorder(order, done) {
            @Override
            public void onAcceptCompleted(OpAccept op) {
                order.add(ACCEPT);
                try {
                    accepted.add(op.adopt(this));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (accepted.size() < connections) {
                    server[0].accept(); // waits until this callback returns; a connection is queued for it
                }
                done.countDown();
            }
        };
        List<SocketChannel> clients = new ArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Gate gate = new Gate(demux);
             SocketPair first = new SocketPair(demux, handler); SocketPair second = new SocketPair(demux, handler)) {
            server[0] = AsynchChannel.openServer(demux, handler,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            if (chained != null) {
                server[0].setChainedCallbacks(chained);
            }
            for (int i = 0; i < connections; i++) {
                clients.add(SocketChannel.open(server[0].getLocalAddress())); // queued: the handshake is done
            }
            gate.enter();
            server[0].accept(); // completes at start: queued behind the gate
            queueRead(first);
            queueRead(second);
            gate.open();
            await(done, "the accepts' and reads' callbacks");
            return order;
        } finally {
            for (AsynchChannel a : accepted) {
                a.close();
            }
            for (SocketChannel c : clients) {
                c.close();
            }
            if (server[0] != null) {
                server[0].close();
            }
        }
    }

    // ------------------------------------------------------------------------------------ datagram sockets

    /**
     * A datagram socket serves many peers through one channel, so it chains across its two directions by default:
     * in the echo of datagrams already waiting (each receive's callback sends the datagram back, each send's callback
     * receives again, and each completes as it is started) every callback is followed on its thread by the next, not
     * queued behind every other channel's completion (one datagram per trip through them); with chaining off, each
     * send and receive queues behind the reads already waiting.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aDatagramSocketsEchoIsChainedAcrossItsDirectionsByDefault(ProactorConfig config) throws Exception {
        ProactorConfig oneThread = oneThread(config);
        List<String> chained = concat(echoes(3), order(READ, READ));
        assertEquals(chained, echoAmongQueuedReads(oneThread, 3, true), "chained");
        assertEquals(order(RECEIVE, READ, READ, SEND, RECEIVE, SEND, RECEIVE, SEND),
                echoAmongQueuedReads(oneThread, 3, false), "queued");
        assertEquals(chained, echoAmongQueuedReads(oneThread, 3, null), "a datagram socket's default");
    }

    /**
     * A chain across directions is bounded like one within a direction: after the first callback, 16 more at most
     * run in a row on its thread; the next operation is then started as usual and queued behind the completions
     * already waiting, and its own callback begins a new chain. Nothing is lost: every datagram is echoed, in order.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aChainAcrossDirectionsLetsQueuedCompletionsInAfterSixteenCallbacks(ProactorConfig config) throws Exception {
        List<String> firstTrip = concat(echoes(8), order(RECEIVE)); // the first callback and 16 chained
        List<String> expected = concat(concat(firstTrip, order(READ, READ, SEND)), echoes(3));
        assertEquals(expected, echoAmongQueuedReads(oneThread(config), 12, null));
    }

    /**
     * A callback that starts an operation of the other direction, which completes at once and is held for the
     * callback's thread, and then closes its channel: the held operation is still dispatched once, after the
     * callback, on that thread, with its result (the datagram was sent), as any completion that finished before a
     * close; the channel is closed by then.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anOperationHeldForTheCallbacksThreadKeepsItsResultWhenTheCallbackCloses(ProactorConfig config)
            throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(2);
        AsynchChannel[] udp = new AsynchChannel[1];
        AsynchHandler handler = new Recorder(order, done) {
            @Override
            public void onReceiveCompleted(OpReceive op) {
                threads.add(Thread.currentThread());
                order.add(op.isSuccess() ? RECEIVE : RECEIVE + " failed: " + op.getError());
                ByteBuffer b = (ByteBuffer) op.getAttachment();
                udp[0].send(b.flip(), op.getSourceAddress(), b);
                udp[0].close();
                done.countDown();
            }

            @Override
            public void onSendCompleted(OpSend op) {
                threads.add(Thread.currentThread());
                order.add(op.isSuccess() ? SEND + " " + op.getBytesCompleted() : SEND + " failed: " + op.getError());
                order.add(udp[0].isOpen() ? "open" : "closed");
                done.countDown();
            }
        };
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Demultiplexor demux = Demultiplexor.open(oneThread(config)).start();
             DatagramChannel client = DatagramChannel.open().bind(loopback)) {
            udp[0] = AsynchChannel.openDatagram(demux, handler, loopback);
            client.send(ByteBuffer.wrap(new byte[] {7, 7, 7}), udp[0].getLocalAddress());
            ByteBuffer b = ByteBuffer.allocateDirect(64);
            udp[0].receive(b, b);
            await(done, "the receive's and the send's callbacks");
            assertEquals(order(RECEIVE, SEND + " 3", "closed"), order);
            assertEquals(threads.get(0), threads.get(1), "the send was dispatched by the receive callback's thread");
            client.socket().setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            DatagramPacket echo = new DatagramPacket(new byte[64], 64);
            client.socket().receive(echo);
            assertEquals(3, echo.getLength(), "the echo");
        }
    }

    /**
     * The order of the callbacks after the gate: the echo of {@code datagrams} datagrams queued before its first
     * receive, among reads of two other channels queued after that receive. Checks that the client got every
     * datagram back, in order.
     *
     * @param chained the datagram channel's {@link AsynchChannel#setChainedCallbacks} setting, null to leave it
     */
    private static List<String> echoAmongQueuedReads(ProactorConfig config, int datagrams, Boolean chained)
            throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(2 * datagrams + 2);
        AtomicInteger echoed = new AtomicInteger();
        AsynchChannel[] udp = new AsynchChannel[1];
        AsynchHandler handler = new Recorder(order, done) {
            @Override
            public void onReceiveCompleted(OpReceive op) {
                order.add(op.isSuccess() ? RECEIVE : RECEIVE + " failed: " + op.getError());
                ByteBuffer b = (ByteBuffer) op.getAttachment();
                udp[0].send(b.flip(), op.getSourceAddress(), b);
                done.countDown();
            }

            @Override
            public void onSendCompleted(OpSend op) {
                order.add(op.isSuccess() ? SEND : SEND + " failed: " + op.getError());
                if (echoed.incrementAndGet() < datagrams) {
                    ByteBuffer b = (ByteBuffer) op.getAttachment();
                    udp[0].receive(b.clear(), b); // a datagram is waiting: completes at start
                }
                done.countDown();
            }
        };
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Gate gate = new Gate(demux);
             SocketPair first = new SocketPair(demux, handler); SocketPair second = new SocketPair(demux, handler);
             DatagramChannel client = DatagramChannel.open().bind(loopback)) {
            udp[0] = AsynchChannel.openDatagram(demux, handler, loopback);
            if (chained != null) {
                udp[0].setChainedCallbacks(chained);
            }
            for (int i = 0; i < datagrams; i++) {
                client.send(ByteBuffer.wrap(new byte[] {(byte) i}), udp[0].getLocalAddress()); // queued at once
            }
            gate.enter();
            ByteBuffer b = ByteBuffer.allocateDirect(64);
            udp[0].receive(b, b); // completes at start: queued behind the gate
            queueRead(first);
            queueRead(second);
            gate.open();
            await(done, "the echo's and the reads' callbacks");
            client.socket().setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
            for (int i = 0; i < datagrams; i++) {
                DatagramPacket echo = new DatagramPacket(new byte[64], 64);
                client.socket().receive(echo);
                assertEquals(1, echo.getLength(), "echo " + i);
                assertEquals((byte) i, echo.getData()[0], "echo " + i);
            }
            udp[0].close();
            return order;
        }
    }

    // ------------------------------------------------------------------------------------ fixtures

    /** Queues a read of one byte the peer already sent: it completes at start. */
    private static void queueRead(SocketPair pair) throws IOException {
        pair.send(1);
        pair.server.read(ByteBuffer.allocateDirect(8));
    }

    /** Records each read's callback and counts it down; subclasses record the rest. */
    private static class Recorder implements AsynchHandler {
        final List<String> order;
        final CountDownLatch done;

        Recorder(List<String> order, CountDownLatch done) {
            this.order = order;
            this.done = done;
        }

        @Override
        public void onReadCompleted(OpRead op) {
            order.add(READ);
            done.countDown();
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    /**
     * Holds the demultiplexor's one dispatching thread in the callback of a read on a connection of its own, from
     * {@link #enter} to {@link #open}: what completes meanwhile is queued behind it. Closing opens it first.
     */
    private static final class Gate implements AutoCloseable {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);
        private final SocketPair pair;

        Gate(Demultiplexor demux) throws IOException {
            pair = new SocketPair(demux, new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                    entered.countDown();
                    try {
                        opened.await(GUARD_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                }
            });
        }

        /** Returns once the dispatching thread is inside the gate's callback. */
        void enter() throws IOException, InterruptedException {
            queueRead(pair);
            await(entered, "the gate's callback");
        }

        void open() {
            opened.countDown();
        }

        @Override
        public void close() throws IOException {
            open();
            pair.close();
        }
    }
}
