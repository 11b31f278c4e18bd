package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DatagramConformanceTest;
import java.util.stream.Stream;

/** The datagram conformance suite on the emulated engine, every wait strategy, thread count and leader mode. */
class NioDatagramConformanceTest extends DatagramConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
