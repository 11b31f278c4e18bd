package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TransmitFileConformanceTest;

/** The file transmission conformance suite on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioTransmitFileConformanceTest extends TransmitFileConformanceTest {
}
