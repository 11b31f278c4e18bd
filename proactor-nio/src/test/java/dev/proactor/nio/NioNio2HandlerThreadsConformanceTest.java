package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where NIO.2 handlers run, on the JDK's provider (the reference) and our provider on the nio engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {
}
