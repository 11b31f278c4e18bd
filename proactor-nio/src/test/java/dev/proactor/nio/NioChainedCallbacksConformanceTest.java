package dev.proactor.nio;

import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where chained callbacks are dispatched on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {
}
