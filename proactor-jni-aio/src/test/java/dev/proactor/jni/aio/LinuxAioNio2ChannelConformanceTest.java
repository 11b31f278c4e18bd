package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 channel contracts on our provider on the linux-aio engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {
}
