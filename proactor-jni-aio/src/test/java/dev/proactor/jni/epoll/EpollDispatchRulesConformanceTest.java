package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DispatchRulesConformanceTest;
import java.util.stream.Stream;

/** The dispatcher's rules on the epoll engine, every wait strategy, thread count and leader mode. */
class EpollDispatchRulesConformanceTest extends DispatchRulesConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(EpollEngineProvider.NAME);
    }
}
