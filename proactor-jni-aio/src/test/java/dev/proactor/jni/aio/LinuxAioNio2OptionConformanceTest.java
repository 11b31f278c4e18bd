package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The NIO.2 option contracts on our provider on the linux-aio engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {
}
