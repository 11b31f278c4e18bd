package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ToolkitConformanceTest;
import dev.proactor.conformance.ToolkitTesting;
import java.util.stream.Stream;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the Linux AIO (sockets on its epoll side) engine. Skipped, with the
 * cause, where the engine is unavailable.
 */
class LinuxAioToolkitConformanceTest extends ToolkitConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ToolkitTesting.configurations(LinuxAioEngineProvider.NAME);
    }
}
