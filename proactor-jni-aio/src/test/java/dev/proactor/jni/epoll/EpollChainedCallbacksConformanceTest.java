package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/** Where chained callbacks are dispatched on the epoll engine, across its wait strategies and leader modes. */
class EpollChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.crossSection(EpollEngineProvider.NAME);
    }
}
