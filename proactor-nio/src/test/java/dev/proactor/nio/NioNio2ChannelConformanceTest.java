package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 channel contracts on the JDK's provider (the reference) and our provider on the nio engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {
}
