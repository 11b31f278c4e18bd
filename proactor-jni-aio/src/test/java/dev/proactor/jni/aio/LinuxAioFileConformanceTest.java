package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.FileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file conformance suite on the Linux AIO engine, which runs files itself (kernel AIO, no thread-pool
 * file engine beside it): every wait strategy, thread count and leader mode. Skipped, with the cause, where the
 * native library, epoll or Linux AIO is unavailable.
 */
class LinuxAioFileConformanceTest extends FileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(LinuxAioEngineProvider.NAME);
    }
}
