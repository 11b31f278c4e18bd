package dev.proactor.jni.uring;

import dev.proactor.conformance.DispatchRulesConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The dispatcher's rules on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringDispatchRulesConformanceTest extends DispatchRulesConformanceTest {
}
