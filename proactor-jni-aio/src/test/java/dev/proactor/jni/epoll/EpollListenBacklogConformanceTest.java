package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ListenBacklogConformanceTest;

/** The listen backlog a listening channel gets, on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollListenBacklogConformanceTest extends ListenBacklogConformanceTest {
}
