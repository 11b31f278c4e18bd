package dev.proactor.conformance;

import static dev.proactor.conformance.Nio2Fixture.get;
import static dev.proactor.conformance.Nio2Fixture.readFully;
import static dev.proactor.conformance.Nio2Fixture.writeFully;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AcceptPendingException;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.ReadPendingException;
import java.nio.channels.WritePendingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contracts of {@link AsynchronousSocketChannel} and {@link AsynchronousServerSocketChannel} (and of
 * {@link java.nio.channels.AsynchronousByteChannel}) that programs rely on: data, one pending operation per
 * direction, timeouts and cancelled futures, half-close, close, closed channels, binding and addresses. Socket
 * options are in {@link AbstractNio2OptionConformanceTest}. Written once and run against the JDK's provider (the
 * reference) and ours on every engine: a concrete subclass names its engine ({@link EngineUnderTest}).
 * Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2ChannelConformanceTest {

    /** Row {@code NIO2_CHANNEL} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_CHANNEL, test);
    }

    private static final String NAME = "[{index}] {0}";
    /** How long a test lets an operation that can never complete stay pending before it checks the state. */
    private static final long SETTLE_MILLIS = 1_000;

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void movesFourMebibytesEachWayByteExact(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            Nio2Fixture.Pair p = f.pair(g);
            byte[] data = new byte[4 << 20];
            new Random(7).nextBytes(data);
            // The accepted side echoes with handlers, the client writes and reads with futures.
            Outcome<Long> echoed = new Outcome<>();
            new Echo(p.accepted(), data.length, echoed).start();
            Future<?> writer = java.util.concurrent.ForkJoinPool.commonPool().submit(() -> {
                writeFully(p.client(), ByteBuffer.wrap(data));
                return null;
            });
            ByteBuffer back = readFully(p.client(), data.length);
            get(writer);
            assertEquals((long) data.length, echoed.value());
            assertEquals(crc(ByteBuffer.wrap(data)), crc(back));
        }
    }

    /** Echoes {@code total} bytes with CompletionHandlers (a read, then writes until the chunk is out). */
    private static final class Echo implements java.nio.channels.CompletionHandler<Integer, Boolean> {
        private final AsynchronousSocketChannel ch;
        private final long total;
        private final Outcome<Long> done;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(7_000);
        private long moved;

        Echo(AsynchronousSocketChannel ch, long total, Outcome<Long> done) {
            this.ch = ch;
            this.total = total;
            this.done = done;
        }

        void start() {
            ch.read(buf, Boolean.TRUE, this);
        }

        @Override
        public void completed(Integer n, Boolean reading) {
            if (reading) {
                if (n < 0) {
                    done.failed(new java.io.EOFException("after " + moved), null);
                    return;
                }
                buf.flip();
                ch.write(buf, Boolean.FALSE, this);
            } else if (buf.hasRemaining()) {
                ch.write(buf, Boolean.FALSE, this);
            } else {
                moved += buf.position();
                buf.clear();
                if (moved == total) {
                    done.completed(moved, null);
                } else {
                    ch.read(buf, Boolean.TRUE, this);
                }
            }
        }

        @Override
        public void failed(Throwable e, Boolean reading) {
            done.failed(e, null);
        }
    }

    private static long crc(ByteBuffer b) {
        CRC32 c = new CRC32();
        c.update(b.duplicate());
        return c.getValue();
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void scatteringReadsAndGatheringWritesMoveEveryByte(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            ByteBuffer[] srcs = {ByteBuffer.wrap(new byte[] {1, 2, 3}), ByteBuffer.allocate(0),
                    ByteBuffer.wrap(new byte[] {4, 5, 6, 7})};
            long left = 7;
            while (left > 0) {
                Outcome<Long> w = new Outcome<>();
                p.client().write(srcs, 0, 3, 30, TimeUnit.SECONDS, null, w);
                long n = w.value();
                assertTrue(n > 0);
                left -= n;
            }
            ByteBuffer[] dsts = {ByteBuffer.allocate(2), ByteBuffer.allocate(0), ByteBuffer.allocate(5)};
            long got = 0;
            while (got < 7) {
                Outcome<Long> r = new Outcome<>();
                p.accepted().read(dsts, 0, 3, 30, TimeUnit.SECONDS, null, r);
                long n = r.value();
                assertTrue(n > 0);
                got += n;
            }
            assertArrayEquals(new byte[] {1, 2}, dsts[0].array());
            assertArrayEquals(new byte[] {3, 4, 5, 6, 7}, dsts[2].array());
            assertThrows(IndexOutOfBoundsException.class,
                    () -> p.client().write(srcs, 2, 2, 0, TimeUnit.SECONDS, null, new Outcome<Long>()));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aSecondPendingReadWriteOrAcceptIsRefusedAndTheFirstStillCompletes(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Outcome<Integer> read = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(8), null, read);
            assertThrows(ReadPendingException.class, () -> p.accepted().read(ByteBuffer.allocate(8)));
            Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
            p.server().accept(null, accept);
            assertThrows(AcceptPendingException.class, () -> p.server().accept());
            Future<Integer> stuck = fillUntilAWriteStaysPending(p.accepted());
            assertThrows(WritePendingException.class, () -> p.accepted().write(ByteBuffer.allocate(1)));
            // The first of each still completes.
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {9}));
            assertEquals(1, read.value());
            try (Socket other = new Socket()) {
                other.connect(p.server().getLocalAddress());
                f.track(accept.value());
            }
            Future<Long> drained = drainUntilEndOfStream(p.client());
            assertTrue(get(stuck) > 0);
            p.accepted().shutdownOutput();
            assertTrue(get(drained) > 0);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void operationsInTheWrongStateAreRefused(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousSocketChannel unconnected = f.socket(g);
            assertThrows(NotYetConnectedException.class, () -> unconnected.read(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, () -> unconnected.write(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, unconnected::shutdownInput);
            assertThrows(NotYetConnectedException.class, unconnected::shutdownOutput);
            assertNull(unconnected.getRemoteAddress());
            AsynchronousServerSocketChannel unbound = f.track(f.provider.openAsynchronousServerSocketChannel(g));
            assertThrows(NotYetBoundException.class, unbound::accept);
            assertNull(unbound.getLocalAddress());
            Nio2Fixture.Pair p = f.pair(g);
            assertThrows(AlreadyConnectedException.class, () -> p.client().connect(p.server().getLocalAddress()));
            assertThrows(AlreadyBoundException.class, () -> p.server().bind(null));
            assertThrows(IllegalArgumentException.class, () -> p.client().read(ByteBuffer.allocate(1).asReadOnlyBuffer()));
        }
    }

    /**
     * A connect the peer's kernel leaves unanswered (its accept queue is full) is pending: a second is refused, and
     * closing the channel fails the first with {@link AsynchronousCloseException}.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aPendingConnectRefusesASecondAndFailsWhenTheChannelCloses(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target);
             ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            List<AsynchronousSocketChannel> queued = new ArrayList<>();
            Outcome<Void> pending = null;
            AsynchronousSocketChannel ch = null;
            for (int i = 0; i < 16 && pending == null; i++) {
                ch = f.socket(g);
                Outcome<Void> c = new Outcome<>();
                ch.connect(full.getLocalSocketAddress(), null, c);
                if (c.endsWithin(SETTLE_MILLIS)) {
                    queued.add(ch);
                } else {
                    pending = c;
                }
            }
            assertTrue(pending != null, "the accept queue never filled");
            AsynchronousSocketChannel connecting = ch;
            assertThrows(ConnectionPendingException.class, () -> connecting.connect(full.getLocalSocketAddress()));
            connecting.close();
            assertInstanceOf(AsynchronousCloseException.class, pending.failure());
            assertFalse(queued.isEmpty());
            // A connect future cancelled without interrupt leaves the channel open and the connect going on.
            AsynchronousSocketChannel cancelled = f.socket(g);
            Future<Void> connect = cancelled.connect(full.getLocalSocketAddress());
            assertTrue(connect.cancel(false));
            assertThrows(CancellationException.class, connect::get);
            assertTrue(cancelled.isOpen());
            assertThrows(ConnectionPendingException.class, () -> cancelled.connect(full.getLocalSocketAddress()));
            // cancel(true) closes it.
            AsynchronousSocketChannel interrupted = f.socket(g);
            Future<Void> connect2 = interrupted.connect(full.getLocalSocketAddress());
            assertTrue(connect2.cancel(true));
            assertFalse(interrupted.isOpen());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aReadThatTimesOutRefusesFurtherReadsButNotWrites(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Outcome<Integer> timed = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(8), 50, TimeUnit.MILLISECONDS, "att", timed);
            assertInstanceOf(InterruptedByTimeoutException.class, timed.failure());
            assertEquals("att", timed.attachment());
            assertRefused(READING_REFUSED, () -> p.accepted().read(ByteBuffer.allocate(8)));
            Outcome<Long> scattering = new Outcome<>();
            assertRefused(READING_REFUSED, () -> p.accepted().read(new ByteBuffer[] {ByteBuffer.allocate(8)},
                    0, 1, 0, TimeUnit.SECONDS, null, scattering));
            assertTrue(p.accepted().isOpen());
            writeFully(p.accepted(), ByteBuffer.wrap(new byte[] {1, 2}));
            assertArrayEquals(new byte[] {1, 2}, readFully(p.client(), 2).array());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aWriteThatTimesOutRefusesFurtherWritesButNotReads(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            Throwable failure = null;
            for (int i = 0; i < 512 && failure == null; i++) {
                Outcome<Long> w = new Outcome<>();
                chunk.clear();
                p.accepted().write(new ByteBuffer[] {chunk}, 0, 1, 100, TimeUnit.MILLISECONDS, null, w);
                try {
                    w.value();
                } catch (AssertionError e) {
                    failure = e.getCause();
                }
            }
            assertInstanceOf(InterruptedByTimeoutException.class, failure);
            assertRefused(WRITING_REFUSED, () -> p.accepted().write(ByteBuffer.allocate(1)));
            assertTrue(p.accepted().isOpen());
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {5}));
            assertArrayEquals(new byte[] {5}, readFully(p.accepted(), 1).array());
        }
    }

    /**
     * A timed write completes with the bytes it wrote once some went out, as the JDK's: the timeout bounds the wait
     * for progress, not the transfer of the whole buffer. A 32 MiB write to a peer that reads steadily but slowly
     * completes with 0 &lt; n (the position advanced by n), writing stays allowed, and timed writes in a loop send
     * every byte.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aTimedWriteToASlowReaderCompletesWithTheBytesItWrote(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            byte[] data = new byte[32 << 20];
            new Random(11).nextBytes(data);
            ByteBuffer src = ByteBuffer.allocateDirect(data.length).put(data).flip();
            sendToASlowReader(f, g, data, ch -> {
                int before = src.position();
                Outcome<Integer> w = new Outcome<>();
                ch.write(src, before == 0 ? 100 : WRITE_LOOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS, "att", w);
                int n = w.value();
                assertEquals("att", w.attachment());
                assertTrue(n > 0, () -> "wrote " + n);
                assertEquals(before + n, src.position(), "the position advanced by the count");
                return src.hasRemaining();
            });
        }
    }

    /** As {@link #aTimedWriteToASlowReaderCompletesWithTheBytesItWrote} for a gathering write (a Long count). */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aTimedGatheringWriteToASlowReaderCompletesWithTheBytesItWrote(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            byte[] data = new byte[32 << 20];
            new Random(13).nextBytes(data);
            int half = data.length / 2;
            ByteBuffer[] srcs = {ByteBuffer.wrap(data, 0, half).slice(), ByteBuffer.wrap(data, half, half).slice()};
            sendToASlowReader(f, g, data, ch -> {
                long before = (long) srcs[0].position() + srcs[1].position();
                Outcome<Long> w = new Outcome<>();
                ch.write(srcs, 0, 2, before == 0 ? 100 : WRITE_LOOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS, null, w);
                long n = w.value();
                assertTrue(n > 0, () -> "wrote " + n);
                assertEquals(before + n, (long) srcs[0].position() + srcs[1].position(),
                        "the positions advanced by the count");
                return srcs[1].hasRemaining();
            });
        }
    }

    /**
     * The timeout of the timed writes after the first in {@link #sendToASlowReader}: long enough that a peer thread
     * starved for a while on a loaded machine still reads something (a timeout with nothing written ends writing),
     * short enough that a write that waits for its whole buffer times out.
     */
    private static final long WRITE_LOOP_TIMEOUT_MILLIS = 500;

    /** One timed write of {@link #sendToASlowReader}; returns whether bytes are left to write. */
    private interface TimedWrite {
        boolean writeOnce(AsynchronousSocketChannel ch) throws Exception;
    }

    /**
     * Accepts a plain {@link Socket} peer on a listening channel of {@code g} that reads steadily but slowly (256 KiB,
     * then a 10 ms pause), calls {@code write} on the accepted channel until it has nothing left, and checks that
     * the peer received {@code data} byte-exact. The pauses only pace the peer; nothing is timed.
     */
    private static void sendToASlowReader(Nio2Fixture f, AsynchronousChannelGroup g, byte[] data, TimedWrite write)
            throws Exception {
        AsynchronousServerSocketChannel server = f.server(g);
        Future<AsynchronousSocketChannel> accepted = server.accept();
        try (Socket peer = new Socket()) {
            peer.connect(server.getLocalAddress());
            peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS)); // hang guard
            AsynchronousSocketChannel ch = f.track(get(accepted));
            java.util.concurrent.FutureTask<Long> reader = new java.util.concurrent.FutureTask<>(() -> {
                CRC32 crc = new CRC32();
                byte[] chunk = new byte[256 << 10];
                long total = 0;
                java.io.InputStream in = peer.getInputStream();
                while (total < data.length) {
                    int n = in.readNBytes(chunk, 0, (int) Math.min(chunk.length, data.length - total));
                    if (n == 0) {
                        break; // end of stream
                    }
                    crc.update(chunk, 0, n);
                    total += n;
                    Thread.sleep(10);
                }
                assertEquals(data.length, total, "bytes received");
                return crc.getValue();
            });
            Thread t = new Thread(reader, "slow-reader");
            t.setDaemon(true);
            t.start();
            while (write.writeOnce(ch)) {
                // every timed write completed with progress; the next one writes the rest
            }
            assertEquals(crc(ByteBuffer.wrap(data)), get(reader), "CRC of the bytes received");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void cancellingAReadFutureRefusesFurtherReadsAndLeavesTheChannelOpen(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Future<Integer> read = p.accepted().read(ByteBuffer.allocate(8));
            assertTrue(read.cancel(false));
            assertTrue(read.isCancelled());
            assertTrue(read.isDone());
            assertFalse(read.cancel(false));
            assertThrows(CancellationException.class, read::get);
            assertRefused(READING_REFUSED, () -> p.accepted().read(ByteBuffer.allocate(8)));
            assertTrue(p.accepted().isOpen());
            writeFully(p.accepted(), ByteBuffer.wrap(new byte[] {3}));
            assertArrayEquals(new byte[] {3}, readFully(p.client(), 1).array());
        }
    }

    /** {@code cancel(true)} closes the channel: Tomcat and MINA stop a blocked read or accept this way. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void cancellingAFutureWithInterruptClosesTheChannel(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Future<Integer> read = p.accepted().read(ByteBuffer.allocate(8));
            assertThrows(java.util.concurrent.TimeoutException.class, () -> read.get(10, TimeUnit.MILLISECONDS));
            assertTrue(read.cancel(true));
            assertFalse(p.accepted().isOpen());
            assertThrows(CancellationException.class, read::get);
            assertEquals(-1, get(p.client().read(ByteBuffer.allocate(8))), "the peer saw the close");
            Future<AsynchronousSocketChannel> accept = p.server().accept();
            assertTrue(accept.cancel(true));
            assertFalse(p.server().isOpen());
        }
    }

    // ---------------------------------------------------------------- refusals' messages, bad arguments

    /** The JDK's message (sun.nio.ch) for a read refused after a read timed out or its future was cancelled. */
    static final String READING_REFUSED = "Reading not allowed due to timeout or cancellation";
    /** The JDK's message for a write refused after a write timed out or its future was cancelled. */
    static final String WRITING_REFUSED = "Writing not allowed due to timeout or cancellation";
    /** The JDK's message (a plain {@link RuntimeException}) for an accept after an accept future was cancelled. */
    static final String ACCEPTING_REFUSED = "Accept not allowed due cancellation";

    /** Asserts that {@code op} is refused with {@link IllegalStateException} and the JDK's {@code message}. */
    static void assertRefused(String message, org.junit.jupiter.api.function.Executable op) {
        assertEquals(message, assertThrows(IllegalStateException.class, op).getMessage());
    }

    /** A cancelled accept future refuses further accepts, with the JDK's exception (its class and message). */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anAcceptAfterACancelledAcceptFutureIsRefusedAsTheJdkRefusesIt(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousServerSocketChannel server = f.server(f.fixedGroup(2, "fixed"));
            Future<AsynchronousSocketChannel> accept = server.accept();
            assertTrue(accept.cancel(false));
            RuntimeException refused = assertThrows(RuntimeException.class, server::accept);
            assertEquals(RuntimeException.class, refused.getClass());
            assertEquals(ACCEPTING_REFUSED, refused.getMessage());
            RuntimeException refusedHandler = assertThrows(RuntimeException.class,
                    () -> server.accept(null, new Outcome<AsynchronousSocketChannel>()));
            assertEquals(RuntimeException.class, refusedHandler.getClass());
            assertEquals(ACCEPTING_REFUSED, refusedHandler.getMessage());
            assertTrue(server.isOpen());
        }
    }

    /**
     * A gathering write with a null buffer in its range fails through its handler with
     * {@link NullPointerException}, as the JDK's does (it finds the null when it starts the I/O, after it took the
     * write direction): nothing is written, the direction is free again (the next write works) and not killed.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aGatheringWriteWithANullBufferFailsWithNullPointerExceptionAndTheNextWriteWorks(Nio2Target target)
            throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            ByteBuffer first = ByteBuffer.wrap(new byte[] {1});
            Outcome<Long> nullLast = new Outcome<>();
            p.client().write(new ByteBuffer[] {first, null}, 0, 2, 0, TimeUnit.SECONDS, null, nullLast);
            assertInstanceOf(NullPointerException.class, nullLast.failure());
            assertEquals(0, first.position(), "nothing of the failed write was written");
            Outcome<Long> nothingElse = new Outcome<>();
            p.client().write(new ByteBuffer[] {ByteBuffer.allocate(0), null}, 0, 2, 30, TimeUnit.SECONDS, null,
                    nothingElse);
            assertInstanceOf(NullPointerException.class, nothingElse.failure(),
                    "a null fails the write also when the other buffers have nothing to write");
            Outcome<Long> outside = new Outcome<>();
            p.client().write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {2}), null}, 0, 1, 0, TimeUnit.SECONDS,
                    null, outside);
            assertEquals(1L, outside.value(), "a null outside the range is not looked at");
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {3}));
            assertArrayEquals(new byte[] {2, 3}, readFully(p.accepted(), 2).array());
        }
    }

    /**
     * Arguments the JDK refuses at the call (null, read-only or out-of-range buffers, no handler, no address) throw
     * there, before the direction is taken: the next operation of each direction works.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void badArgumentsThrowAtTheCallAndLeaveEveryDirectionFree(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            Nio2Fixture.Pair p = f.pair(g);
            AsynchronousSocketChannel r = p.accepted();
            AsynchronousSocketChannel w = p.client();
            ByteBuffer readOnly = ByteBuffer.allocate(4).asReadOnlyBuffer();
            Outcome<Long> longs = new Outcome<>();
            Outcome<Integer> ints = new Outcome<>();
            assertThrows(NullPointerException.class, () -> r.read(new ByteBuffer[] {ByteBuffer.allocate(1), null},
                    0, 2, 0, TimeUnit.SECONDS, null, longs));
            assertThrows(IllegalArgumentException.class, () -> r.read(new ByteBuffer[] {ByteBuffer.allocate(1),
                    readOnly}, 0, 2, 0, TimeUnit.SECONDS, null, longs));
            assertThrows(NullPointerException.class, () -> r.read((ByteBuffer[]) null, 0, 0, 0, TimeUnit.SECONDS,
                    null, longs));
            assertThrows(IndexOutOfBoundsException.class, () -> r.read(new ByteBuffer[1], 0, 2, 0, TimeUnit.SECONDS,
                    null, longs));
            assertThrows(IndexOutOfBoundsException.class, () -> r.read(new ByteBuffer[1], -1, 1, 0,
                    TimeUnit.SECONDS, null, longs));
            assertThrows(IllegalArgumentException.class, () -> r.read(readOnly));
            assertThrows(IllegalArgumentException.class, () -> r.read(readOnly, 0, TimeUnit.SECONDS, null, ints));
            assertThrows(NullPointerException.class, () -> r.read((ByteBuffer) null));
            assertThrows(NullPointerException.class, () -> r.read(ByteBuffer.allocate(1), 0, TimeUnit.SECONDS, null,
                    null));
            assertThrows(NullPointerException.class, () -> w.write((ByteBuffer) null));
            assertThrows(NullPointerException.class, () -> w.write((ByteBuffer) null, 0, TimeUnit.SECONDS, null,
                    ints));
            assertThrows(NullPointerException.class, () -> w.write((ByteBuffer[]) null, 0, 0, 0, TimeUnit.SECONDS,
                    null, longs));
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(new ByteBuffer[1], 0, 2, 0,
                    TimeUnit.SECONDS, null, longs));
            assertThrows(NullPointerException.class, () -> w.write(ByteBuffer.allocate(1), 0, TimeUnit.SECONDS,
                    null, null));
            AsynchronousSocketChannel unconnected = f.socket(g);
            assertThrows(NullPointerException.class, () -> unconnected.connect(null));
            assertThrows(NullPointerException.class, () -> unconnected.connect(null, null, new Outcome<Void>()));
            assertThrows(NullPointerException.class, () -> p.server().accept(null, null));
            assertFalse(longs.endsWithin(0) || ints.endsWithin(0), "no handler of a refused call ran");
            // Every direction is free.
            Future<AsynchronousSocketChannel> accepted = p.server().accept();
            assertNull(get(unconnected.connect(p.server().getLocalAddress())));
            f.track(get(accepted));
            writeFully(w, ByteBuffer.wrap(new byte[] {7, 8}));
            assertArrayEquals(new byte[] {7, 8}, readFully(r, 2).array());
        }
    }

    /**
     * A read with a timeout but no unit that has to wait fails through its handler with
     * {@link NullPointerException}, as the JDK's (the unit is needed only to arm the timer): the direction is free
     * again and not killed. A timeout of zero or less needs no unit.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aWaitingReadWithATimeoutButNoUnitFailsWithNullPointerException(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Outcome<Integer> noUnit = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(4), 5, null, null, noUnit);
            assertInstanceOf(NullPointerException.class, noUnit.failure());
            Outcome<Long> noUnitScattering = new Outcome<>();
            p.accepted().read(new ByteBuffer[] {ByteBuffer.allocate(4)}, 0, 1, 5, null, null, noUnitScattering);
            assertInstanceOf(NullPointerException.class, noUnitScattering.failure());
            Outcome<Integer> zero = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(1), 0, null, null, zero);
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {4}));
            assertEquals(1, zero.value());
            Outcome<Integer> negative = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(1), -1, null, null, negative);
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {5}));
            assertEquals(1, negative.value());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void shutdownInputEndsReadsAndShutdownOutputEndsThePeersStream(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            p.accepted().shutdownInput();
            assertEquals(-1, get(p.accepted().read(ByteBuffer.allocate(8))));
            Outcome<Long> scattering = new Outcome<>();
            p.accepted().read(new ByteBuffer[] {ByteBuffer.allocate(8)}, 0, 1, 0, TimeUnit.SECONDS, null, scattering);
            assertEquals(-1L, scattering.value());
            p.client().shutdownOutput();
            p.client().shutdownOutput(); // idempotent
            Outcome<Integer> refused = new Outcome<>();
            p.client().write(ByteBuffer.allocate(1), null, refused);
            assertInstanceOf(ClosedChannelException.class, refused.failure());
            assertEquals(-1, get(p.accepted().read(ByteBuffer.allocate(8))));
            // The other directions still work.
            writeFully(p.accepted(), ByteBuffer.wrap(new byte[] {4}));
            assertArrayEquals(new byte[] {4}, readFully(p.client(), 1).array());
            p.accepted().close();
            assertEquals(-1, get(p.client().read(ByteBuffer.allocate(8))));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closeFailsPendingOperationsWithAsynchronousCloseException(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            Outcome<Integer> read = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(8), null, read);
            Future<Integer> write = fillUntilAWriteStaysPending(p.accepted());
            assertFalse(read.endsWithin(0));
            Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
            p.server().accept(null, accept);
            p.accepted().close();
            p.accepted().close(); // idempotent
            p.server().close();
            assertInstanceOf(AsynchronousCloseException.class, read.failure());
            ExecutionException e = assertThrows(ExecutionException.class, () -> get(write));
            assertInstanceOf(AsynchronousCloseException.class, e.getCause());
            assertInstanceOf(AsynchronousCloseException.class, accept.failure());
            assertFalse(p.accepted().isOpen());
            for (Outcome<?> o : List.of(read, accept)) {
                String thread = o.thread().getName();
                assertTrue(thread.startsWith("fixed-"), () -> "handler ran on " + thread);
            }
        }
    }

    /**
     * A read pending when its channel is closed fails with {@link AsynchronousCloseException} even when the peer's
     * end of stream arrives while the close is under way (io_uring cancels asynchronously: it used to deliver -1).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aReadPendingAtCloseFailsAlsoWhenThePeerClosesMeanwhile(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target);
             java.nio.channels.ServerSocketChannel listener = java.nio.channels.ServerSocketChannel.open()) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            for (int round = 0; round < 500; round++) {
                AsynchronousSocketChannel client = f.socket(g);
                get(client.connect(listener.getLocalAddress()));
                Future<Integer> read = client.read(ByteBuffer.allocateDirect(100));
                java.nio.channels.SocketChannel peer = listener.accept();
                client.close();
                peer.close(); // its end of stream races with the close
                int r = round;
                ExecutionException e = assertThrows(ExecutionException.class, () -> get(read), () -> "round " + r);
                assertInstanceOf(AsynchronousCloseException.class, e.getCause(), () -> "round " + r);
            }
        }
    }

    /**
     * Once {@link AsynchronousServerSocketChannel#close()} returned, the port is free: a plain listener with the
     * JDK's default options (SO_REUSEADDR, which Linux never lets bind beside a socket still listening) binds it.
     * With and without an accept pending; repeated so a close that returns before the socket is released shows up.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closingAListenerFreesItsPortBeforeCloseReturns(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            for (int round = 0; round < 50; round++) {
                AsynchronousServerSocketChannel server = f.track(f.provider.openAsynchronousServerSocketChannel(g));
                server.bind(address);
                address = (InetSocketAddress) server.getLocalAddress();
                Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
                if (round % 2 == 0) {
                    server.accept(null, accept);
                }
                server.close();
                assertPortFree(address, "round " + round);
                if (round % 2 == 0) {
                    assertInstanceOf(AsynchronousCloseException.class, accept.failure());
                }
            }
        }
    }

    /**
     * A listener closed from its own accept handler (on the group's only thread) frees the port before close
     * returns, without deadlock: the handler then binds the port with a plain listener.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closingAListenerFromItsAcceptHandlerFreesItsPortWithoutDeadlock(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            for (int round = 0; round < 20; round++) {
                AsynchronousServerSocketChannel server = f.track(f.provider.openAsynchronousServerSocketChannel(g));
                server.bind(address);
                InetSocketAddress bound = (InetSocketAddress) server.getLocalAddress();
                address = bound;
                Outcome<String> rebound = new Outcome<>();
                server.accept(null, new java.nio.channels.CompletionHandler<AsynchronousSocketChannel, Object>() {
                    @Override
                    public void completed(AsynchronousSocketChannel ch, Object a) {
                        try {
                            ch.close();
                            server.close();
                            assertPortFree(bound, "in the handler");
                            rebound.completed("bound", a);
                        } catch (Exception | AssertionError e) {
                            rebound.failed(e, a);
                        }
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                        rebound.failed(e, a);
                    }
                });
                try (Socket client = new Socket(bound.getAddress(), bound.getPort())) {
                    client.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS));
                    int r = round;
                    assertEquals("bound", rebound.value(), () -> "round " + r);
                    assertEquals(-1, client.getInputStream().read(), "the handler closed the connection");
                }
            }
        }
    }

    // ---------------------------------------------------------------- connections not accepted at a close

    /**
     * Connections a listening channel has not handed out when it closes (left in its backlog, or taken ahead by an
     * engine's multishot accept and held for the next accept) are dropped as the JDK drops them: each client sees
     * a reset. A burst larger than the accepts first: some are accepted, the rest is left.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closingAListenerResetsTheConnectionsItDidNotHandOutAsTheJdkDoes(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
            List<Socket> clients = new ArrayList<>();
            try {
                Future<AsynchronousSocketChannel> first = server.accept();
                for (int i = 0; i < 6; i++) {
                    Socket c = new Socket(address.getAddress(), address.getPort());
                    c.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS)); // hang guard
                    clients.add(c);
                }
                java.util.Set<java.net.SocketAddress> accepted = new java.util.HashSet<>();
                accepted.add(f.track(get(first)).getRemoteAddress());
                accepted.add(f.track(get(server.accept())).getRemoteAddress());
                server.close();
                int reset = 0;
                for (Socket c : clients) {
                    if (accepted.contains(c.getLocalSocketAddress())) {
                        continue;
                    }
                    java.io.IOException e = assertThrows(java.io.IOException.class, () -> c.getInputStream().read(),
                            "a connection dropped by the listener's close");
                    assertTrue(String.valueOf(e.getMessage()).contains("reset"), e::toString);
                    reset++;
                }
                assertEquals(4, reset, "every connection not accepted is reset; accepted: " + accepted);
            } finally {
                for (Socket c : clients) {
                    c.close();
                }
            }
        }
    }

    /** Binds a plain JDK listener with its default options to {@code address}, or fails saying it is in use. */
    private static void assertPortFree(InetSocketAddress address, String when) throws java.io.IOException {
        try (java.nio.channels.ServerSocketChannel plain = java.nio.channels.ServerSocketChannel.open()) {
            plain.bind(address);
        } catch (java.net.BindException e) {
            throw new AssertionError(when + ": " + address + " still in use after close() returned", e);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void operationsOnAClosedChannelFailWithClosedChannelException(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            Nio2Fixture.Pair p = f.pair(g);
            java.net.SocketAddress serverAddress = p.server().getLocalAddress();
            p.client().close();
            p.server().close();
            AsynchronousSocketChannel never = f.socket(g);
            never.close();
            List<Outcome<?>> outcomes = new ArrayList<>();
            Outcome<Integer> read = new Outcome<>();
            p.client().read(ByteBuffer.allocate(1), null, read);
            Outcome<Integer> write = new Outcome<>();
            p.client().write(ByteBuffer.allocate(1), null, write);
            Outcome<Void> connect = new Outcome<>();
            never.connect(serverAddress, null, connect);
            Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
            p.server().accept(null, accept);
            outcomes.addAll(List.of(read, write, connect, accept));
            for (Outcome<?> o : outcomes) {
                assertInstanceOf(ClosedChannelException.class, o.failure());
            }
            ExecutionException e = assertThrows(ExecutionException.class, () -> get(p.client().read(ByteBuffer.allocate(1))));
            assertInstanceOf(ClosedChannelException.class, e.getCause());
            assertThrows(ClosedChannelException.class, p.client()::getLocalAddress);
            assertThrows(ClosedChannelException.class, p.client()::getRemoteAddress);
            assertThrows(ClosedChannelException.class, p.server()::getLocalAddress);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void addressesAndBindingAreThoseOfTheSocket(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            AsynchronousSocketChannel client = f.socket(g);
            assertNull(client.getLocalAddress());
            client.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress bound = (InetSocketAddress) client.getLocalAddress();
            assertTrue(bound.getPort() > 0);
            assertThrows(AlreadyBoundException.class, () -> client.bind(null));
            Future<AsynchronousSocketChannel> accepted = server.accept();
            get(client.connect(server.getLocalAddress()));
            AsynchronousSocketChannel peer = f.track(get(accepted));
            assertEquals(bound, client.getLocalAddress());
            assertEquals(server.getLocalAddress(), client.getRemoteAddress());
            assertEquals(bound, peer.getRemoteAddress());
            assertEquals(server.getLocalAddress(), peer.getLocalAddress());
        }
    }

    /** Reads (with futures, on a thread of the common pool) until the end of stream; the future has the count. */
    static Future<Long> drainUntilEndOfStream(AsynchronousSocketChannel ch) {
        return java.util.concurrent.ForkJoinPool.commonPool().submit(() -> {
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            long total = 0;
            int n;
            while ((n = get(ch.read(buf.clear()))) >= 0) {
                total += n;
            }
            return total;
        });
    }

    /**
     * Starts writes of 1 MiB on a channel whose peer does not read, each completing before the next, until one stays
     * pending (the socket buffers are full); returns it.
     */
    static Future<Integer> fillUntilAWriteStaysPending(AsynchronousSocketChannel ch) throws Exception {
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        while (true) {
            chunk.clear();
            Future<Integer> w = ch.write(chunk);
            try {
                w.get(SETTLE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException stillPending) {
                return w;
            }
        }
    }

}
