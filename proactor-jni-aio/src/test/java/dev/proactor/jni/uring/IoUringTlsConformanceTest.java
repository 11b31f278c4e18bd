package dev.proactor.jni.uring;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TlsConformanceTest;
import java.util.stream.Stream;

/** The TLS channel on the io_uring engine. Skipped, with the cause, where the engine is unavailable. */
class IoUringTlsConformanceTest extends TlsConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return TlsConformanceTest.configurationsOf(IoUringEngineProvider.NAME);
    }
}
