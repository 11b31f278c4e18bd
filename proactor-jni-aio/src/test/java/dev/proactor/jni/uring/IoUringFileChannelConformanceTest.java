package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The FileChannel contracts on ours with the io_uring engine running the files; skipped where io_uring is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringFileChannelConformanceTest extends AbstractFileChannelConformanceTest {
}
