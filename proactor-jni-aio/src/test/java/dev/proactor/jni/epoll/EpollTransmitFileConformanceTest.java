package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.TransmitFileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file transmission conformance suite on the epoll engine (sendfile, and the copying path for a
 * {@code FileChannel} that is not the JDK's): every wait strategy, thread count and leader mode. Skipped, with
 * the cause, where the native library or epoll is unavailable.
 */
class EpollTransmitFileConformanceTest extends TransmitFileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(EpollEngineProvider.NAME);
    }
}
