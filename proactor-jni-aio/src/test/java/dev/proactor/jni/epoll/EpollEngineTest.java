package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.jni.NativeTestSupport;
import dev.proactor.spi.EngineProvider;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The epoll engine under the core's demultiplexor, through the user API. Until the core's conformance suite
 * exists these are the engine's end-to-end tests; waits have hang guards, not timing assertions.
 */
class EpollEngineTest {

    private static final long GUARD_SECONDS = 30;

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    private static Demultiplexor open(String waitStrategy, LeaderMode leader) throws IOException {
        ProactorConfig config = ProactorConfig.builder().engine(EpollEngineProvider.NAME).waitStrategy(waitStrategy)
                .leader(leader).threads(2).strict(true).build();
        Demultiplexor demultiplexor = Demultiplexor.open(config);
        assertEquals(EpollEngineProvider.NAME, demultiplexor.getEngineName());
        assertEquals(waitStrategy, demultiplexor.getWaitStrategyName());
        return demultiplexor.start();
    }

    @Test
    void providerIsFoundByServiceLoader() {
        EngineProvider found = null;
        for (EngineProvider provider : ServiceLoader.load(EngineProvider.class)) {
            if (provider.name().equals(EpollEngineProvider.NAME)) {
                found = provider;
            }
        }
        assertNotNull(found, "no epoll provider registered in META-INF/services");
        assertTrue(found.isAvailable());
        assertEquals(List.of("epoll", "busy-poll"), found.waitStrategies());
    }

    @ParameterizedTest(name = "{0}, {1} leader, direct={2}")
    @CsvSource({
        "epoll, SHARED, true",
        "epoll, SHARED, false",
        "epoll, DEDICATED, true",
        "busy-poll, SHARED, true",
        "busy-poll, DEDICATED, false",
    })
    void echoesLargeMessagesThroughTheEngine(String waitStrategy, LeaderMode leader, boolean direct) throws Exception {
        byte[] message = new byte[300_000]; // larger than socket buffers and the heap bounce block
        new Random(42).nextBytes(message);
        try (Demultiplexor demultiplexor = open(waitStrategy, leader)) {
            AsynchChannel server = AsynchChannel.openServer(demultiplexor, new EchoAcceptor(direct),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.accept();
            EchoClient client = new EchoClient(message, direct);
            AsynchChannel channel = AsynchChannel.openSocket(demultiplexor, client);
            client.channel = channel;
            channel.connect(server.getLocalAddress());
            assertArrayEquals(message, client.received.get(GUARD_SECONDS, TimeUnit.SECONDS));
            channel.close();
            server.close();
        }
    }

    @Test
    void connectToAClosedPortFailsWithConnectException() throws Exception {
        SocketAddress closedPort;
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            closedPort = probe.getLocalAddress();
        }
        try (Demultiplexor demultiplexor = open("epoll", LeaderMode.SHARED)) {
            CompletableFuture<Throwable> error = new CompletableFuture<>();
            AsynchChannel channel = AsynchChannel.openSocket(demultiplexor, new NoIo() {
                @Override
                public void onConnectCompleted(OpConnect op) {
                    error.complete(op.getError());
                }
            });
            channel.connect(closedPort);
            assertInstanceOf(ConnectException.class, error.get(GUARD_SECONDS, TimeUnit.SECONDS));
            channel.close();
        }
    }

    @Test
    void closeCompletesAPendingReadOnceWithAnError() throws Exception {
        try (Demultiplexor demultiplexor = open("epoll", LeaderMode.SHARED);
                ServerSocketChannel peer = ServerSocketChannel.open()) {
            peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AtomicInteger reads = new AtomicInteger();
            CompletableFuture<OpReadResult> result = new CompletableFuture<>();
            AsynchChannel channel = new AsynchChannel(demultiplexor, new NoIo() {
                @Override
                public void onReadCompleted(OpRead op) {
                    reads.incrementAndGet();
                    result.complete(new OpReadResult(op.getError()));
                }
            }, SocketChannel.open(peer.getLocalAddress()));
            try (SocketChannel accepted = peer.accept()) {
                channel.read(ByteBuffer.allocateDirect(64)); // nothing will arrive: it stays pending
                channel.close();
                assertNotNull(result.get(GUARD_SECONDS, TimeUnit.SECONDS).error, "pending read must fail on close");
                assertEquals(1, reads.get());
                assertTrue(accepted.isOpen());
            }
        }
    }

    @Test
    void jdkChannelRegisteredWithTheSeedConstructorIsDrivenNatively() throws Exception {
        try (Demultiplexor demultiplexor = open("epoll", LeaderMode.SHARED);
                ServerSocketChannel peer = ServerSocketChannel.open()) {
            peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<Long> written = new CompletableFuture<>();
            AsynchChannel channel = new AsynchChannel(demultiplexor, new NoIo() {
                @Override
                public void onWriteCompleted(OpWrite op) {
                    written.complete(op.isSuccess() ? op.getBytesCompleted() : -1L);
                }
            }, SocketChannel.open(peer.getLocalAddress()));
            try (SocketChannel accepted = peer.accept()) {
                channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
                assertEquals(4L, written.get(GUARD_SECONDS, TimeUnit.SECONDS));
                ByteBuffer received = ByteBuffer.allocate(4);
                while (received.hasRemaining() && accepted.read(received) >= 0) {
                    Thread.onSpinWait();
                }
                assertArrayEquals(new byte[] {1, 2, 3, 4}, received.array());
                assertEquals(accepted.getRemoteAddress(), channel.getLocalAddress());
                assertEquals(peer.getLocalAddress(), channel.getRemoteAddress());
            }
            channel.close();
        }
    }

    /** A read's outcome, copied out of the reused operation object. */
    private static final class OpReadResult {
        final Throwable error;

        OpReadResult(Throwable error) {
            this.error = error;
        }
    }

    /** A handler for tests that override only the callbacks they expect. */
    private abstract static class NoIo implements AsynchHandler {
        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("unexpected read completion " + op);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("unexpected write completion " + op);
        }
    }

    /** Accepts connections and echoes each with its own buffer. */
    private static final class EchoAcceptor extends NoIo {
        private final boolean direct;

        EchoAcceptor(boolean direct) {
            this.direct = direct;
        }

        @Override
        public void onAcceptCompleted(OpAccept op) throws IOException {
            if (op.isSuccess()) { // an error means the server was closed: stop accepting
                EchoConnection connection = new EchoConnection(direct);
                connection.channel = op.adopt(connection);
                connection.channel.read(connection.buffer);
                op.getChannel().accept();
            }
        }
    }

    /** Reads, writes back what was read, reads again; closes at end of stream. */
    private static final class EchoConnection implements AsynchHandler {
        final ByteBuffer buffer;
        AsynchChannel channel;

        EchoConnection(boolean direct) {
            buffer = direct ? ByteBuffer.allocateDirect(8192) : ByteBuffer.allocate(8192);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                channel.close();
                return;
            }
            buffer.flip();
            channel.write(buffer);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) {
                channel.close();
                return;
            }
            buffer.clear();
            channel.read(buffer);
        }
    }

    /** Connects, sends the message as a gathering write of two buffers, and reads the echo back. */
    private static final class EchoClient implements AsynchHandler {
        final CompletableFuture<byte[]> received = new CompletableFuture<>();
        private final byte[] message;
        private final ByteBuffer[] outgoing;
        private final ByteBuffer incoming;
        private final byte[] echo;
        private int echoed;
        AsynchChannel channel;

        EchoClient(byte[] message, boolean direct) {
            this.message = message;
            this.echo = new byte[message.length];
            int half = message.length / 2;
            outgoing = new ByteBuffer[] {
                buffer(direct, half).put(message, 0, half).flip(),
                buffer(direct, message.length - half).put(message, half, message.length - half).flip(),
            };
            incoming = buffer(direct, 16_384);
        }

        private static ByteBuffer buffer(boolean direct, int size) {
            return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        }

        @Override
        public void onConnectCompleted(OpConnect op) {
            if (!op.isSuccess()) {
                received.completeExceptionally(op.getError());
                return;
            }
            channel.write(outgoing);
            channel.read(incoming);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) {
                received.completeExceptionally(op.getError());
            } else if (op.getBytesCompleted() != message.length) {
                received.completeExceptionally(new AssertionError("wrote " + op.getBytesCompleted()));
            }
        }

        @Override
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                received.completeExceptionally(op.isSuccess() ? new AssertionError("early end of stream after "
                        + echoed) : op.getError());
                return;
            }
            incoming.flip();
            int n = incoming.remaining();
            incoming.get(echo, echoed, n);
            echoed += n;
            incoming.clear();
            if (echoed == message.length) {
                received.complete(echo);
            } else {
                channel.read(incoming);
            }
        }
    }
}
