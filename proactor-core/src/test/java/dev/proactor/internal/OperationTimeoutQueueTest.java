package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Operation timeouts and the demultiplexor's timer queue: a timed operation that completes in time leaves its
 * timer queued, and the next use of the operation object reuses that queued timer instead of taking the
 * dispatcher's lock twice per operation (NIO.2 applications such as Tomcat time every read and write); the
 * timeout still fires at the deadline of the use that is armed when it runs out; a channel's close takes its
 * timers out of the queue. Driven by this test thread on a manual timer clock (no pool, no sleeping).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperationTimeoutQueueTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final RecordedReads h = new RecordedReads();

    private Demultiplexor open() throws Exception {
        Demultiplexor demux = Demultiplexor.open(
                ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1).build());
        core(demux).dispatcher().useTimerClock(clock::get);
        return demux;
    }

    private static ScriptedChannel engineChannel(AsynchChannel ch) {
        return (ScriptedChannel) core(ch).input.active().request.channel();
    }

    /** A timed read of {@code ch} that the engine completes with {@code bytes} and the test thread dispatches. */
    private static void readInTime(Demultiplexor demux, ScriptedEngine engine, AsynchChannel ch, long timeoutMs,
                                   long bytes) {
        ch.read(ByteBuffer.allocate(8), timeoutMs, TimeUnit.MILLISECONDS, null);
        assertTrue(engine.complete(engineChannel(ch), true, bytes));
        assertEquals(1, demux.handleEvents(0, TimeUnit.MILLISECONDS));
    }

    @Test
    void timedOperationsThatCompleteInTimeScheduleTheirTimerOnce() throws Exception {
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            long before = core(demux).dispatcher().timerSchedules();
            for (int i = 0; i < 100; i++) {
                clock.addAndGet(MS);
                readInTime(demux, engine, ch, 20_000, 1);
            }
            assertEquals(1, core(demux).dispatcher().timerSchedules() - before,
                    "every timed read took the dispatcher's lock to schedule (and cancel) its timer");
            assertEquals(100, h.bytes.size());
            assertTrue(h.errors.stream().allMatch(e -> e == null), "a read timed out: " + h.errors);
        }
    }

    @Test
    void aReArmedTimeoutFiresAtTheDeadlineOfTheUseArmedWhenItRunsOut() throws Exception {
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            readInTime(demux, engine, ch, 100, 3); // the timer stays queued for t0 + 100 ms
            clock.addAndGet(60 * MS);
            ch.read(ByteBuffer.allocate(8), 100, TimeUnit.MILLISECONDS, null); // deadline t0 + 160 ms
            clock.addAndGet(50 * MS); // t0 + 110: the queued timer is due, the armed use is not
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(1, h.bytes.size(), "the read timed out at the deadline of the earlier use");
            clock.addAndGet(49 * MS); // t0 + 159
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(1, h.bytes.size(), "the read timed out before its deadline");
            clock.addAndGet(MS); // t0 + 160
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(2, h.bytes.size(), "the read did not time out at its deadline");
            assertNull(h.errors.get(0));
            assertInstanceOf(InterruptedByTimeoutException.class, h.errors.get(1));
        }
    }

    @Test
    void aTimeoutShorterThanTheQueuedTimerIsScheduledForItsOwnDeadline() throws Exception {
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            readInTime(demux, engine, ch, TimeUnit.HOURS.toMillis(1), 3); // queued an hour ahead
            ch.read(ByteBuffer.allocate(8), 10, TimeUnit.MILLISECONDS, null);
            clock.addAndGet(10 * MS);
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(2, h.bytes.size(), "the short timeout waited for the hour-long timer");
            assertInstanceOf(InterruptedByTimeoutException.class, h.errors.get(1));
        }
    }

    @Test
    void aTimerThatRunsOutWithNothingArmedIsNotQueuedAgain() throws Exception {
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, h);
            readInTime(demux, engine, ch, 100, 3);
            assertEquals(1, core(demux).dispatcher().timerCount());
            clock.addAndGet(100 * MS);
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(0, core(demux).dispatcher().timerCount(), "an idle operation's timer went on running");
            assertEquals(1, h.bytes.size());
            readInTime(demux, engine, ch, 100, 4); // armed again from scratch
            assertEquals(List.of(3L, 4L), h.bytes);
        }
    }

    @Test
    void closingAChannelTakesTheTimersOfItsOperationsOutOfTheQueue() throws Exception {
        try (Demultiplexor demux = open()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel idle = AsynchChannel.openSocket(demux, h);
            readInTime(demux, engine, idle, 20_000, 1); // completed: its operation object is free
            AsynchChannel busy = AsynchChannel.openSocket(demux, h);
            busy.read(ByteBuffer.allocate(8), 20_000, TimeUnit.MILLISECONDS, null); // pending at close
            assertEquals(2, core(demux).dispatcher().timerCount());
            idle.close();
            busy.close();
            while (demux.handleEvents(0, TimeUnit.MILLISECONDS) > 0) {
                // dispatch the close error of the pending read
            }
            assertEquals(2, h.bytes.size());
            assertEquals(0, core(demux).dispatcher().timerCount(),
                    "closed channels stay reachable from the timer queue until their timeouts run out");
        }
    }
}
