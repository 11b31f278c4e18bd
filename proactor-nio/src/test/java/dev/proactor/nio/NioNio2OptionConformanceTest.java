package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 option contracts on the JDK's provider (the reference) and our provider on the nio engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {
}
