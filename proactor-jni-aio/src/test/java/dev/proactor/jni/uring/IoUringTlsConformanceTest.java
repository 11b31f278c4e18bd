package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TlsConformanceTest;

/** The TLS channel on the io_uring engine. Skipped, with the cause, where the engine is unavailable. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringTlsConformanceTest extends TlsConformanceTest {
}
