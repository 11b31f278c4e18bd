package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 group contracts on our provider on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {
}
