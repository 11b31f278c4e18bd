package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;

/** Operation timeouts, counters, totals and JFR events on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {
}
