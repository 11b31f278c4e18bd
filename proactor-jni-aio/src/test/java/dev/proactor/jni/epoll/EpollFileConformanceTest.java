package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.FileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file conformance suite with the epoll engine as primary: the engine does not claim file reads and
 * writes, so they run on the core's thread-pool file engine beside it. Every wait strategy, thread count and
 * leader mode; skipped, with the cause, where the native library or epoll is unavailable.
 */
class EpollFileConformanceTest extends FileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(EpollEngineProvider.NAME);
    }
}
