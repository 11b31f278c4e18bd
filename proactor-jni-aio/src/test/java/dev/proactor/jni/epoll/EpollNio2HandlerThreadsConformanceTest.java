package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where NIO.2 handlers run, on our provider on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {
}
