package dev.proactor.jni.aio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ListenBacklogConformanceTest;

/** The listen backlog a listening channel gets, on the Linux AIO engine. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioListenBacklogConformanceTest extends ListenBacklogConformanceTest {
}
