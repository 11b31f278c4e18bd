package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.TransmitFileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file transmission conformance suite on the io_uring engine (read + send, from the engine's duplicate of
 * the file's descriptor or through a {@code FileChannel} that is not the JDK's): every wait strategy, thread count and
 * leader mode. Skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringTransmitFileConformanceTest extends TransmitFileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(IoUringEngineProvider.NAME);
    }
}
