package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/** The whole socket conformance suite on the emulated engine, every wait strategy, thread count and leader mode. */
class NioConformanceTest extends AbstractConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
