package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DispatchRulesConformanceTest;
import java.util.stream.Stream;

/** The dispatcher's rules on the io_uring engine, every wait strategy, thread count and leader mode. */
class IoUringDispatchRulesConformanceTest extends DispatchRulesConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(IoUringEngineProvider.NAME);
    }
}
