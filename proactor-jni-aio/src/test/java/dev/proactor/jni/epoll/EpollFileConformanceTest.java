package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.FileConformanceTest;

/**
 * The core's file conformance suite with the epoll engine as primary: the engine does not claim file reads and writes,
 * so they run on the core's thread-pool file engine beside it. Skipped, with the cause, where the native library or
 * epoll is unavailable.
 */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollFileConformanceTest extends FileConformanceTest {
}
