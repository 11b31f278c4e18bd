package dev.proactor.jni.uring;

import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where chained callbacks are dispatched on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {
}
