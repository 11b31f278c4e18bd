package dev.proactor.nio;

import dev.proactor.conformance.BufferConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The buffer conformance suite on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioBufferConformanceTest extends BufferConformanceTest {
}
