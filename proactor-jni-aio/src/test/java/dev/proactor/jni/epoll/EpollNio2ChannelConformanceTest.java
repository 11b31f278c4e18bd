package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 channel contracts on our provider on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {
}
