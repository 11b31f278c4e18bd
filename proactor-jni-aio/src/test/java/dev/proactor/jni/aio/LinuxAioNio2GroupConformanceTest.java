package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 group contracts on our provider on the linux-aio engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {
}
