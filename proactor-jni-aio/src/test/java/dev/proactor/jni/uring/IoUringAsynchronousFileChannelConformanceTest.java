package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractAsynchronousFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The AsynchronousFileChannel contracts on ours with the io_uring engine running the files; skipped where io_uring is
 * unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringAsynchronousFileChannelConformanceTest extends AbstractAsynchronousFileChannelConformanceTest {
}
