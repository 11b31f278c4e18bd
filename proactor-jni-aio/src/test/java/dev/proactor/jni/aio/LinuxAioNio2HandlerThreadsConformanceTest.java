package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** Where NIO.2 handlers run, on our provider on the linux-aio engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {
}
