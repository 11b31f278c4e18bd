package dev.proactor.jni.aio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.FileConformanceTest;

/**
 * The core's file conformance suite on the Linux AIO engine, which runs files itself (kernel AIO, no thread-pool file
 * engine beside it). Skipped, with the cause, where the native library, epoll or Linux AIO is unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioFileConformanceTest extends FileConformanceTest {
}
