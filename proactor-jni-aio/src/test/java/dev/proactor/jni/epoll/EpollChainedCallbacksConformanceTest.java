package dev.proactor.jni.epoll;

import dev.proactor.conformance.ChainedCallbacksConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where chained callbacks are dispatched on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollChainedCallbacksConformanceTest extends ChainedCallbacksConformanceTest {
}
