package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 channel contracts on our provider on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {
}
