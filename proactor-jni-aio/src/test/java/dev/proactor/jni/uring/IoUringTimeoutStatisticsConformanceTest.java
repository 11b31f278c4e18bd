package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;

/**
 * Operation timeouts, counters, totals and JFR events on the io_uring engine. Skipped, with the cause, where the engine
 * is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {
}
