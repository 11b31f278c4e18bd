package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 option contracts on our provider on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {
}
