package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 contracts of handlers and callers that wait, on our provider on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {
}
