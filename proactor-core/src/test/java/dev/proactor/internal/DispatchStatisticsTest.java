package dev.proactor.internal;

import static dev.proactor.Internals.core;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.DispatchStatistics;
import dev.proactor.LatencySnapshot;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.nio.ByteBuffer;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The histogram and the statistics a demultiplexor records when asked to. */
class DispatchStatisticsTest {

    @Test
    void bucketsCoverEveryValueWithinSixPercent() {
        for (long v : new long[] {0, 1, 15, 16, 17, 100, 1_000, 123_456, 10_000_000_000L, Long.MAX_VALUE}) {
            long low = LatencyRecorder.lowestOf(LatencyRecorder.bucketOf(v));
            assertTrue(low <= v, v + " below its bucket " + low);
            assertTrue(v - low <= v / 16, v + " too far from its bucket " + low);
        }
    }

    @Test
    void percentilesOfKnownDurations() {
        LatencyRecorder r = new LatencyRecorder();
        for (int i = 1; i <= 1000; i++) {
            r.record(i * 1_000L); // 1 us .. 1 ms
        }
        LatencySnapshot s = r.snapshot();
        assertEquals(1000, s.count());
        assertEquals(1_000_000, s.maxNanos());
        assertTrue(Math.abs(s.p50Nanos() - 500_000) <= 500_000 / 16, s.toString());
        assertTrue(Math.abs(s.p99Nanos() - 990_000) <= 990_000 / 16, s.toString());
        r.reset();
        assertEquals(0, r.snapshot().count());
    }

    @Test
    void offByDefaultAndOnByProperty() throws Exception {
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.builder().engine(ScriptedEngineProvider.NAME)
                .threads(1).build())) {
            assertNull(demux.getDispatchStatistics());
        }
        Properties p = new Properties();
        p.setProperty(ProactorConfig.ENGINE, ScriptedEngineProvider.NAME);
        p.setProperty(ProactorConfig.DISPATCH_STATISTICS, "true");
        ProactorConfig config = ProactorConfig.fromProperties(p);
        assertTrue(config.dispatchStatistics());
        Semaphore reads = new Semaphore(0);
        try (Demultiplexor demux = Demultiplexor.open(config.toBuilder().threads(1).build()).start()) {
            ScriptedEngine engine = ScriptedEngineProvider.last();
            AsynchChannel ch = AsynchChannel.openSocket(demux, new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                    reads.release();
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                }
            });
            ch.read(ByteBuffer.allocate(4));
            ScriptedChannel ech = (ScriptedChannel) core(ch).input.active().request.channel();
            for (int i = 0; i < 3; i++) {
                if (i > 0) {
                    ch.read(ByteBuffer.allocate(4)); // may wait behind the previous read until its dispatch ends
                }
                for (int j = 0; j < 6000 && !engine.complete(ech, true, 1); j++) {
                    Thread.sleep(10); // hang guard: until the read is parked in the engine
                }
                assertTrue(reads.tryAcquire(60, TimeUnit.SECONDS), "hang guard");
            }
            DispatchStatistics stats = demux.getDispatchStatistics();
            assertTrue(stats.queueWait().count() >= 3, stats.toString());
            assertTrue(stats.pollGap().count() >= 1, stats.toString());
        }
    }
}
