package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;

/** The toolkit (Acceptor, Connector, ReadFully) on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioToolkitConformanceTest extends ToolkitConformanceTest {
}
