package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ToolkitConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/** The toolkit (Acceptor, Connector, ReadFully) on the emulated engine. */
class NioToolkitConformanceTest extends ToolkitConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(NioEngineProvider.NAME);
    }
}
