package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TimeoutStatisticsConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/**
 * Operation timeouts, counters, totals and JFR events on the Linux AIO (sockets on its epoll side) engine. Skipped,
 * with the cause, where the engine is unavailable.
 */
class LinuxAioTimeoutStatisticsConformanceTest extends TimeoutStatisticsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(LinuxAioEngineProvider.NAME);
    }
}
