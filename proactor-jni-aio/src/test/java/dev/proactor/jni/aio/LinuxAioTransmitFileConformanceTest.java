package dev.proactor.jni.aio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TransmitFileConformanceTest;

/**
 * The core's file transmission (sendfile) conformance suite on the Linux AIO engine, whose sockets the epoll engine
 * serves under the same leader wait as the AIO files. Skipped, with the cause, where the native library, epoll or Linux
 * AIO is unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioTransmitFileConformanceTest extends TransmitFileConformanceTest {
}
