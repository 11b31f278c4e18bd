package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ToolkitConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/** The toolkit (Acceptor, Connector, ReadFully) on the epoll engine. */
class EpollToolkitConformanceTest extends ToolkitConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(EpollEngineProvider.NAME);
    }
}
