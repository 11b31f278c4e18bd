package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractAsynchronousFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The AsynchronousFileChannel contracts on ours with Linux AIO running the files; skipped where Linux AIO is
 * unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioAsynchronousFileChannelConformanceTest extends AbstractAsynchronousFileChannelConformanceTest {
}
