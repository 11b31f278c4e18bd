package dev.proactor.jni.aio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the Linux AIO (sockets on its epoll side) engine. Skipped, with the
 * cause, where the engine is unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioToolkitConformanceTest extends ToolkitConformanceTest {
}
