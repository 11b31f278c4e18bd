package dev.proactor.nio;

import dev.proactor.conformance.DispatchRulesConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The dispatcher's rules on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioDispatchRulesConformanceTest extends DispatchRulesConformanceTest {
}
