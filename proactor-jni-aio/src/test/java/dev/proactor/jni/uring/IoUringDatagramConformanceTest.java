package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.DatagramConformanceTest;
import java.util.stream.Stream;

/**
 * The core's datagram conformance suite on the io_uring engine: every wait strategy, thread count and leader mode.
 * Skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringDatagramConformanceTest extends DatagramConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(IoUringEngineProvider.NAME);
    }
}
