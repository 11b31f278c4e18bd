package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 group contracts on our provider on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {
}
