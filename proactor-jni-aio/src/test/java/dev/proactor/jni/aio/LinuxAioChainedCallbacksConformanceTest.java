package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import java.util.stream.Stream;

/**
 * Where chained callbacks are dispatched on the Linux AIO engine, whose sockets the epoll engine serves under the
 * same leader wait as the AIO files (see {@link LinuxAioSocketMatrix} for the configurations). Skipped, with the cause,
 * where the native library, epoll or Linux AIO is unavailable.
 */
class LinuxAioChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return LinuxAioSocketMatrix.configurations();
    }
}
