package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The core's socket conformance suite on the epoll engine. Skipped, with the cause, where the native library or epoll
 * is unavailable.
 */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollConformanceTest extends AbstractConformanceTest {
}
