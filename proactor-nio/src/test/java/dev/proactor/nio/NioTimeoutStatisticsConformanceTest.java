package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;

/** Operation timeouts, counters, totals and JFR events on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {
}
