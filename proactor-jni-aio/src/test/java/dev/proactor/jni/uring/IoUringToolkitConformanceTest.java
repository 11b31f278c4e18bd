package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the io_uring engine. Skipped, with the cause, where the engine is
 * unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringToolkitConformanceTest extends ToolkitConformanceTest {
}
