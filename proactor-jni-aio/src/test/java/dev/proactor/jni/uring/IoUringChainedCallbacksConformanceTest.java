package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/** Where chained callbacks are dispatched on the io_uring engine, across its wait strategies and leader modes. */
class IoUringChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.crossSection(IoUringEngineProvider.NAME);
    }
}
