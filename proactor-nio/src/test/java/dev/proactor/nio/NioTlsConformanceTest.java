package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TlsConformanceTest;

/** The TLS channel on the emulated engine. */
@EngineUnderTest(NioEngineProvider.NAME)
class NioTlsConformanceTest extends TlsConformanceTest {
}
