package dev.proactor.jni.epoll;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TlsConformanceTest;
import java.util.stream.Stream;

/** The TLS channel on the epoll engine. */
class EpollTlsConformanceTest extends TlsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return configurationsOf(EpollEngineProvider.NAME);
    }
}
