package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DatagramConformanceTest;
import java.util.stream.Stream;

/**
 * The core's datagram conformance suite on the epoll engine: every wait strategy, thread count and leader mode.
 * Skipped, with the cause, where the native library or epoll is unavailable.
 */
class EpollDatagramConformanceTest extends DatagramConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(EpollEngineProvider.NAME);
    }
}
