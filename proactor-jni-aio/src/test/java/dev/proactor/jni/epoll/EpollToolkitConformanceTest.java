package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;

/** The toolkit (Acceptor, Connector, ReadFully) on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollToolkitConformanceTest extends ToolkitConformanceTest {
}
