package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 contracts of handlers and callers that wait, on our provider on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {
}
