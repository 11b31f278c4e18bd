package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 contracts of handlers and callers that wait, on our provider on the linux-aio engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {
}
