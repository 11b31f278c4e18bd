package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.BufferConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The core's buffer conformance suite on the io_uring engine: every wait strategy, thread count and leader mode.
 * Skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringBufferConformanceTest extends BufferConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.crossSection(IoUringEngineProvider.NAME); // -Pfull-matrix: all of it
    }
}
