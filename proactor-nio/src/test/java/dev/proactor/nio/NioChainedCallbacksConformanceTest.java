package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/** Where chained callbacks are dispatched on the emulated engine, across its wait strategies and leader modes. */
class NioChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.crossSection(NioEngineProvider.NAME);
    }
}
