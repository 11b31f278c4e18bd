package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TlsConformanceTest;
import java.util.stream.Stream;

/** The TLS channel on the emulated engine. */
class NioTlsConformanceTest extends TlsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return configurationsOf(NioEngineProvider.NAME);
    }
}
