package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where NIO.2 handlers run, on our provider on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {
}
