package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The NIO.2 contracts of handlers and callers that wait, on the JDK's provider (the reference) and our provider on the
 * nio engine.
 */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {
}
