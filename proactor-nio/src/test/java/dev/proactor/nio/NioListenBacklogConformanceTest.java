package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ListenBacklogConformanceTest;

/** The listen backlog a listening channel gets, on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioListenBacklogConformanceTest extends ListenBacklogConformanceTest {
}
