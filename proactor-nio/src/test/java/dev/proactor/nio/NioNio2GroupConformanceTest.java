package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 group contracts on the JDK's provider (the reference) and our provider on the nio engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {
}
