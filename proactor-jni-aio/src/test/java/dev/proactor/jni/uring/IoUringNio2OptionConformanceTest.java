package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 option contracts on our provider on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {
}
