package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.FileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file conformance suite on the io_uring engine, which runs file reads and writes itself
 * ({@code IORING_OP_READ}/{@code WRITE} at the position): every wait strategy, thread count and leader mode;
 * skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringFileConformanceTest extends FileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(IoUringEngineProvider.NAME);
    }
}
