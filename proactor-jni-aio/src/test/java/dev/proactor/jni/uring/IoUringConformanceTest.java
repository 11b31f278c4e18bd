package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The core's socket conformance suite on the io_uring engine: every wait strategy, thread count and leader
 * mode. Skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringConformanceTest extends AbstractConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(IoUringEngineProvider.NAME);
    }
}
