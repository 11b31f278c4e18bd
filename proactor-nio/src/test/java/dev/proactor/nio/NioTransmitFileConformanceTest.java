package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.TransmitFileConformanceTest;
import java.util.stream.Stream;

/**
 * The file transmission conformance suite on the emulated engine, every wait strategy, thread count and leader
 * mode.
 */
class NioTransmitFileConformanceTest extends TransmitFileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
