package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The FileChannel contracts on ours with Linux AIO running the files; skipped where Linux AIO is unavailable. */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioFileChannelConformanceTest extends AbstractFileChannelConformanceTest {
}
