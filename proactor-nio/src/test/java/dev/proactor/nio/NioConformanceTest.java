package dev.proactor.nio;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The whole socket conformance suite on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioConformanceTest extends AbstractConformanceTest {
}
