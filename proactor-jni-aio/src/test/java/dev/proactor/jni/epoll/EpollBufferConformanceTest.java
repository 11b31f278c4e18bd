package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.BufferConformanceTest;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The core's buffer conformance suite on the epoll engine: every wait strategy, thread count and leader mode.
 * Skipped, with the cause, where the native library or epoll is unavailable.
 */
class EpollBufferConformanceTest extends BufferConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(EpollEngineProvider.NAME);
    }
}
