package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ToolkitConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the io_uring engine. Skipped, with the cause, where the engine is
 * unavailable.
 */
class IoUringToolkitConformanceTest extends ToolkitConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(IoUringEngineProvider.NAME);
    }
}
