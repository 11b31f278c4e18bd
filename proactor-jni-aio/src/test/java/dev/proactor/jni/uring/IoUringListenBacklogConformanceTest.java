package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ListenBacklogConformanceTest;

/** The listen backlog a listening channel gets, on the io_uring engine. */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringListenBacklogConformanceTest extends ListenBacklogConformanceTest {
}
