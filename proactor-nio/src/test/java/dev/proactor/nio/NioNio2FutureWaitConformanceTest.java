package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2FutureWaitConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** How threads wait in socket futures, on the JDK's provider (the reference) and ours on the nio engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioNio2FutureWaitConformanceTest extends AbstractNio2FutureWaitConformanceTest {
}
