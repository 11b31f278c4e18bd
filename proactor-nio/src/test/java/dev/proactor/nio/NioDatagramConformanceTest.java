package dev.proactor.nio;

import dev.proactor.conformance.DatagramConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The datagram conformance suite on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioDatagramConformanceTest extends DatagramConformanceTest {
}
