package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TlsConformanceTest;
import java.util.stream.Stream;

/**
 * The TLS channel on the Linux AIO (sockets on its epoll side) engine. Skipped, with the cause, where the engine is
 * unavailable.
 */
class LinuxAioTlsConformanceTest extends TlsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return TlsConformanceTest.configurationsOf(LinuxAioEngineProvider.NAME);
    }
}
