package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.BufferConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/** The buffer conformance suite on the emulated engine, every wait strategy, thread count and leader mode. */
class NioBufferConformanceTest extends BufferConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
