package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DispatchRulesConformanceTest;
import java.util.stream.Stream;

/** The dispatcher's rules on the emulated engine, every wait strategy, thread count and leader mode. */
class NioDispatchRulesConformanceTest extends DispatchRulesConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
