package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TransmitFileConformanceTest;

/**
 * The core's file transmission conformance suite on the epoll engine (sendfile, and the copying path for a {@code
 * FileChannel} that is not the JDK's). Skipped, with the cause, where the native library or epoll is unavailable.
 */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollTransmitFileConformanceTest extends TransmitFileConformanceTest {
}
