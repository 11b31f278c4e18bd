package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/** Operation timeouts, counters, totals and JFR events on the epoll engine. */
class EpollTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(EpollEngineProvider.NAME);
    }
}
