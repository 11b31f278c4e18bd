package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The core's stream sockets conformance suite on the Linux AIO engine, whose sockets the epoll engine serves under the
 * same leader wait as the AIO files. Skipped, with the cause, where the native library, epoll or Linux AIO is
 * unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioConformanceTest extends AbstractConformanceTest {
}
