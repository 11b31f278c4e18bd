package dev.proactor.conformance;

import static dev.proactor.conformance.ToolkitTesting.assumeAvailable;
import static dev.proactor.conformance.ToolkitTesting.await;
import static dev.proactor.conformance.ToolkitTesting.loopback;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.IoCounters;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Operation timeouts, per-channel counters, demultiplexor totals and the JFR operation event on real sockets,
 * run by every engine module (a concrete subclass names its engine: {@link EngineUnderTest}).
 * Timeouts are short; the tests only check that an operation timed out, never how fast.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class TimeoutStatisticsConformanceTest {

    /** Row {@code TIMEOUT_STATISTICS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.TIMEOUT_STATISTICS, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final long SHORT_MS = 100;

    /** Hands every completion to the test thread as (kind, bytes, error). */
    private static final class Completions implements AsynchHandler {
        record Done(String kind, long bytes, Throwable error, Object attachment) {
        }

        final BlockingQueue<Done> done = new LinkedBlockingQueue<>();

        Done next() throws InterruptedException {
            Done d = done.poll(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS);
            assertTrue(d != null, "hang guard: no completion");
            return d;
        }

        @Override
        public void onReadCompleted(OpRead op) {
            done.add(new Done("read", op.getBytesCompleted(), op.getError(), op.getAttachment()));
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            done.add(new Done("write", op.getBytesCompleted(), op.getError(), op.getAttachment()));
        }

        @Override
        public void onAcceptCompleted(OpAccept op) throws Exception {
            if (op.hasAcceptedConnection()) {
                op.adopt(this).close();
            }
            done.add(new Done("accept", 0, op.getError(), op.getAttachment()));
        }
    }

    /** A connected pair: a JDK peer and the accepted side wrapped by the seed constructor. */
    private static final class Pair implements AutoCloseable {
        final SocketChannel peer;
        final AsynchChannel channel;

        Pair(Demultiplexor demux, AsynchHandler handler) throws IOException {
            try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                listener.bind(loopback(0));
                peer = SocketChannel.open(listener.getLocalAddress());
                channel = new AsynchChannel(demux, handler, listener.accept());
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
            peer.close();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aTimedOutReadLeavesEveryByteForTheNextRead(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h)) {
            ByteBuffer buf = ByteBuffer.allocate(64);
            p.channel.read(buf, SHORT_MS, TimeUnit.MILLISECONDS, "timed");
            Completions.Done d = h.next();
            assertInstanceOf(InterruptedByTimeoutException.class, d.error());
            assertEquals("timed", d.attachment());
            assertEquals(0, buf.position(), "a timed-out read moved no byte");

            p.peer.write(ByteBuffer.wrap("after the timeout".getBytes()));
            StringBuilder got = new StringBuilder();
            while (got.length() < "after the timeout".length()) {
                buf.clear();
                p.channel.read(buf, ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS, null); // timed, completes
                d = h.next();
                assertNull(d.error());
                got.append(new String(buf.array(), 0, buf.position()));
            }
            assertEquals("after the timeout", got.toString(), "the channel stays usable, nothing lost");

            // The same operation object, reused without a timeout, is not hit by the earlier timers.
            buf.clear();
            p.channel.read(buf, 0, TimeUnit.SECONDS, "untimed");
            p.peer.write(ByteBuffer.wrap("x".getBytes()));
            d = h.next();
            assertNull(d.error());
            assertEquals(1, d.bytes());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aTimedOutReadWaitingBehindAnotherReadTimesOutInOrder(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h)) {
            p.channel.read(ByteBuffer.allocate(8), 1, TimeUnit.HOURS, "first");
            p.channel.read(ByteBuffer.allocate(8), SHORT_MS, TimeUnit.MILLISECONDS, "second");
            p.channel.cancel(); // ends the first; the second may already have been marked by its timeout
            Completions.Done first = h.next();
            Completions.Done second = h.next();
            assertEquals("first", first.attachment());
            assertInstanceOf(OperationCancelledException.class, first.error());
            assertEquals("second", second.attachment());
            assertTrue(second.error() instanceof OperationCancelledException
                    || second.error() instanceof InterruptedByTimeoutException, "second: " + second.error());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aWriteThePeerNeverReadsTimesOutWithTheBytesWrittenBefore(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h)) {
            int size = 64 << 20; // far more than loopback socket buffers hold
            ByteBuffer big = ByteBuffer.allocateDirect(size);
            p.channel.write(big, SHORT_MS, TimeUnit.MILLISECONDS, null);
            Completions.Done d = h.next();
            assertInstanceOf(InterruptedByTimeoutException.class, d.error());
            assertTrue(d.bytes() < size, "written before the timeout: " + d.bytes());
            assertEquals(d.bytes(), big.position());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aTimedOutAcceptLeavesTheListenerUsable(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            AsynchChannel listener = AsynchChannel.openServer(demux, h, loopback(0), 0);
            listener.accept(SHORT_MS, TimeUnit.MILLISECONDS, "timed");
            assertInstanceOf(InterruptedByTimeoutException.class, h.next().error());
            listener.accept(ToolkitTesting.GUARD_SECONDS, TimeUnit.SECONDS, "next");
            try (SocketChannel c = SocketChannel.open(listener.getLocalAddress())) {
                assertTrue(c.isConnected());
                Completions.Done d = h.next();
                assertNull(d.error());
                assertEquals("next", d.attachment());
            }
            listener.close();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void timedOperationsRefuseANegativeTimeout(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h)) {
            assertThrows(IllegalArgumentException.class,
                    () -> p.channel.read(ByteBuffer.allocate(1), -1, TimeUnit.SECONDS, null));
            assertThrows(IllegalArgumentException.class,
                    () -> p.channel.write(ByteBuffer.allocate(1), -1, TimeUnit.SECONDS, null));
            assertThrows(IllegalArgumentException.class,
                    () -> p.channel.connect(loopback(1), -1, TimeUnit.SECONDS, null));
            assertEquals(0, p.channel.getInputStatistics().started(), "a refused call starts nothing");
        }
    }

    // ----------------------------------------------------------------------------------------------- statistics

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void channelCountersAndDemultiplexorTotalsCountWhatHappened(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h)) {
            long dispatchedBefore = demux.getTotals().completionsDispatched();
            for (int i = 0; i < 5; i++) {
                p.peer.write(ByteBuffer.wrap(new byte[10]));
                ByteBuffer in = ByteBuffer.allocate(10);
                while (in.hasRemaining()) {
                    p.channel.read(in);
                    assertNull(h.next().error());
                }
                p.channel.write(ByteBuffer.allocate(10));
                assertNull(h.next().error());
            }
            p.channel.read(ByteBuffer.allocate(1)); // pending until cancelled
            p.channel.cancel();
            assertInstanceOf(OperationCancelledException.class, h.next().error());

            IoCounters in = p.channel.getInputStatistics();
            IoCounters out = p.channel.getOutputStatistics();
            // Counted before each callback runs, so everything reported to the test is counted already.
            assertEquals(1, in.cancelled());
            assertEquals(5, out.completed());
            assertEquals(in.started(), in.completed() + in.cancelled() + in.failed());
            assertEquals(50, in.bytes());
            assertEquals(0, in.failed());
            assertEquals(5, out.started());
            assertEquals(50, out.bytes());
            assertEquals(0, out.failed() + out.cancelled());
            assertTrue(demux.getTotals().completionsDispatched() - dispatchedBefore >= in.started() + 5,
                    demux.getTotals().toString());
            assertTrue(demux.getTotals().queueHighWater() >= 1, demux.getTotals().toString());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anOperationOverTheInFlightLimitCountsAsADeferredStart(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        try (Demultiplexor demux = Demultiplexor.open(config.toBuilder().maxInFlight(1).build()).start();
             Pair first = new Pair(demux, h); Pair second = new Pair(demux, h)) {
            first.channel.read(ByteBuffer.allocate(1)); // waits for its peer: holds the one slot
            second.channel.read(ByteBuffer.allocate(1)); // no slot: deferred
            assertTrue(demux.getTotals().deferredStarts() >= 1, demux.getTotals().toString());
            first.peer.write(ByteBuffer.wrap(new byte[] {1}));
            second.peer.write(ByteBuffer.wrap(new byte[] {2}));
            assertNull(h.next().error());
            assertNull(h.next().error());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aSlowOperationIsRecordedAsAJfrEventWhenEnabled(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Completions h = new Completions();
        Path file = Files.createTempFile("proactor-ops", ".jfr");
        try (Demultiplexor demux = Demultiplexor.open(config).start(); Pair p = new Pair(demux, h);
             Recording recording = new Recording()) {
            recording.enable("dev.proactor.Operation");
            recording.start();
            // Waits for the peer longer than the default 10 ms threshold (the sleep makes it slow, nothing is
            // asserted on time).
            p.channel.read(ByteBuffer.allocate(4), "slow");
            Thread.sleep(50);
            p.peer.write(ByteBuffer.wrap(new byte[] {1}));
            assertNull(h.next().error());
            recording.stop();
            recording.dump(file);
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("dev.proactor.Operation")
                    && "READ".equals(e.getString("kind")) && e.getLong("bytes") == 1), events.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
