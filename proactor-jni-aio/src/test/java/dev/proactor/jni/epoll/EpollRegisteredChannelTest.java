package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.jni.NativeTestSupport;
import dev.proactor.jni.internal.SocketNative;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JDK channel wrapped with the seed constructor and then closed directly by the user (a misuse): its descriptor
 * number is free again and the next socket of the process gets it. The engine must never do I/O on that other
 * socket; the wrapped channel's operations fail with {@link ClosedChannelException} (a pending one with its
 * subclass {@link java.nio.channels.AsynchronousCloseException}). Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EpollRegisteredChannelTest {

    private static final long GUARD_SECONDS = 30;
    private static final int GUARD_MILLIS = (int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS);

    @BeforeEach
    void requireEpoll() {
        NativeTestSupport.assumeEpoll();
    }

    private static Demultiplexor open(String waitStrategy) throws IOException {
        return Demultiplexor.open(ProactorConfig.builder().engine(EpollEngineProvider.NAME).waitStrategy(waitStrategy)
                .leader(LeaderMode.SHARED).threads(2).strict(true).build()).start();
    }

    /** Records the error (or bytes) of each completion by attachment. */
    private static final class Recorder implements AsynchHandler {
        final Map<Object, Object> outcomes = new ConcurrentHashMap<>();
        final Map<Object, CountDownLatch> done = new ConcurrentHashMap<>();

        void expect(Object attachment) {
            done.put(attachment, new CountDownLatch(1));
        }

        private void record(Object attachment, long bytes, Throwable error) {
            outcomes.put(attachment, error != null ? error : (Object) Long.valueOf(bytes));
            done.get(attachment).countDown();
        }

        @Override
        public void onReadCompleted(OpRead op) {
            record(op.getAttachment(), op.getBytesCompleted(), op.getError());
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            record(op.getAttachment(), op.getBytesCompleted(), op.getError());
        }

        /** The error the operation completed with; fails if it completed with bytes instead. */
        Throwable error(Object attachment) throws InterruptedException {
            assertTrue(done.get(attachment).await(GUARD_SECONDS, TimeUnit.SECONDS),
                    "hang guard: operation '" + attachment + "' never completed");
            Object outcome = outcomes.get(attachment);
            assertInstanceOf(Throwable.class, outcome, "operation '" + attachment
                    + "' on a channel whose JDK channel was closed must fail; it moved bytes: " + outcome);
            return (Throwable) outcome;
        }
    }

    /** A connected pair on loopback: {@code mine} and its {@code peer}, both blocking. */
    private record Pair(SocketChannel mine, SocketChannel peer) {
    }

    private static Pair connect(ServerSocketChannel listener) throws IOException {
        SocketChannel mine = SocketChannel.open(listener.getLocalAddress());
        SocketChannel peer = listener.accept();
        peer.socket().setSoTimeout(GUARD_MILLIS);
        return new Pair(mine, peer);
    }

    private static ServerSocketChannel listen() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /**
     * Opens connections until one end gets descriptor {@code number}; that end is the pair's {@code mine}. All
     * others stay open (so the number is not taken back), in {@code keep}.
     */
    private static Pair reuse(ServerSocketChannel listener, int number, List<SocketChannel> keep) throws IOException {
        for (int i = 0; i < 64; i++) {
            Pair pair = connect(listener);
            keep.add(pair.mine());
            keep.add(pair.peer());
            if (SocketNative.fdOf(pair.mine()) == number) {
                return pair;
            }
            if (SocketNative.fdOf(pair.peer()) == number) {
                pair.mine().socket().setSoTimeout(GUARD_MILLIS);
                return new Pair(pair.peer(), pair.mine());
            }
        }
        throw new AssertionError("no new socket got descriptor " + number + " back");
    }

    private static void send(SocketChannel channel, String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** Reads exactly {@code length} bytes with the blocking stream of a channel (whose socket has a timeout). */
    private static String receive(SocketChannel channel, int length) throws IOException {
        byte[] bytes = channel.socket().getInputStream().readNBytes(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Whether the peer sees the connection end (end of stream or reset) within the hang guard. */
    private static boolean seesTheEnd(SocketChannel peer) throws IOException {
        try {
            while (true) {
                if (peer.socket().getInputStream().read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "busy-poll"})
    void operationsAfterTheUserClosedTheJdkChannelNeverTouchTheSocketThatReusedItsNumber(String waitStrategy)
            throws Exception {
        List<SocketChannel> keep = new ArrayList<>();
        try (Demultiplexor demux = open(waitStrategy); ServerSocketChannel listener = listen()) {
            Pair original = connect(listener);
            Recorder recorder = new Recorder();
            AsynchChannel channel = new AsynchChannel(demux, recorder, original.mine());
            recorder.expect("pending read");
            channel.read(ByteBuffer.allocateDirect(64), "pending read");
            int number = SocketNative.fdOf(original.mine());

            original.mine().close(); // the misuse: behind the AsynchChannel's back
            Pair victim = reuse(listener, number, keep);

            // The socket that got the number carries its own traffic, untouched.
            send(victim.peer(), "victim-1");
            assertEquals("victim-1", receive(victim.mine(), 8));

            // The wrapped channel's operations fail instead of reaching that socket.
            recorder.expect("write");
            channel.write(ByteBuffer.wrap("intruder".getBytes(StandardCharsets.US_ASCII)), "write");
            assertInstanceOf(ClosedChannelException.class, recorder.error("write"));
            assertInstanceOf(ClosedChannelException.class, recorder.error("pending read"));
            recorder.expect("late read");
            channel.read(ByteBuffer.allocateDirect(64), "late read");
            assertInstanceOf(ClosedChannelException.class, recorder.error("late read"));

            send(victim.peer(), "victim-2");
            assertEquals("victim-2", receive(victim.mine(), 8), "no read of the wrapped channel took these bytes");
            send(victim.mine(), "marker");
            assertEquals("marker", receive(victim.peer(), 6), "no write of the wrapped channel came before it");

            // The original connection ends once the engine noticed the close.
            assertTrue(seesTheEnd(original.peer()), "the original connection stayed open");

            channel.close();
            assertFalse(channel.isOpen());
            send(victim.peer(), "victim-3");
            assertEquals("victim-3", receive(victim.mine(), 8), "closing the wrapped channel left the other alone");
            assertTrue(victim.mine().isOpen());
            original.peer().close();
        } finally {
            for (SocketChannel c : keep) {
                c.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "busy-poll"})
    void aPendingReadFailsWhenDataArrivesAfterTheUserClosedTheJdkChannel(String waitStrategy) throws Exception {
        List<SocketChannel> keep = new ArrayList<>();
        try (Demultiplexor demux = open(waitStrategy); ServerSocketChannel listener = listen()) {
            Pair original = connect(listener);
            Recorder recorder = new Recorder();
            AsynchChannel channel = new AsynchChannel(demux, recorder, original.mine());
            recorder.expect("pending read");
            channel.read(ByteBuffer.allocateDirect(64), "pending read");
            int number = SocketNative.fdOf(original.mine());

            original.mine().close();
            Pair victim = reuse(listener, number, keep);
            send(victim.peer(), "victim-1"); // readable: a read on the number would take it
            send(original.peer(), "original");

            Throwable error = recorder.error("pending read");
            assertInstanceOf(ClosedChannelException.class, error);
            assertEquals("victim-1", receive(victim.mine(), 8));
            assertTrue(seesTheEnd(original.peer()), "the original connection stayed open");
            channel.close();
            assertNotNull(victim.mine());
            original.peer().close();
        } finally {
            for (SocketChannel c : keep) {
                c.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll"})
    void registeredChannelsLeaveNoDescriptorBehindHoweverTheyAreClosed(String waitStrategy) throws Exception {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        try (Demultiplexor demux = open(waitStrategy); ServerSocketChannel listener = listen()) {
            cycle(demux, listener, 4); // warm-up: lazily created resources are not leaks
            long before = countSockets(fds);
            cycle(demux, listener, 30);
            long after = countSockets(fds);
            assertTrue(after <= before, "socket descriptors grew from " + before + " to " + after);
        }
    }

    /**
     * Wraps {@code n} JDK channels and ends each differently: closed through the AsynchChannel; closed directly and
     * then noticed by an operation, then the AsynchChannel closed; closed directly and only the AsynchChannel closed.
     */
    private static void cycle(Demultiplexor demux, ServerSocketChannel listener, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            Pair pair = connect(listener);
            Recorder recorder = new Recorder();
            AsynchChannel channel = new AsynchChannel(demux, recorder, pair.mine());
            if (i % 3 != 0) {
                pair.mine().close();
            }
            if (i % 3 == 1) {
                recorder.expect("write");
                channel.write(ByteBuffer.wrap(new byte[] {1}), "write");
                assertInstanceOf(ClosedChannelException.class, recorder.error("write"));
            }
            channel.close();
            assertFalse(pair.mine().isOpen());
            pair.peer().close();
        }
    }

    private static long countSockets(Path fds) throws IOException {
        try (Stream<Path> s = Files.list(fds)) {
            return s.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed while listing
                }
            }).count();
        }
    }
}
