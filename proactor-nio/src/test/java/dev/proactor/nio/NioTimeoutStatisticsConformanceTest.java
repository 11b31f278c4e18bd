package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/** Operation timeouts, counters, totals and JFR events on the emulated engine. */
class NioTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(NioEngineProvider.NAME);
    }
}
