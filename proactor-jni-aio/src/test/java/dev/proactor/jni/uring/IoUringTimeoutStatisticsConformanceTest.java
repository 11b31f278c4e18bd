package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/**
 * Operation timeouts, counters, totals and JFR events on the io_uring engine. Skipped, with the cause, where the engine
 * is unavailable.
 */
class IoUringTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(IoUringEngineProvider.NAME);
    }
}
