package dev.proactor.jni.epoll;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TlsConformanceTest;

/** The TLS channel on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollTlsConformanceTest extends TlsConformanceTest {
}
