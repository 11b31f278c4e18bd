package dev.proactor.jni.uring;

import dev.proactor.conformance.BufferConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The core's buffer conformance suite on the io_uring engine. Skipped, with the cause, where the native library or
 * io_uring is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringBufferConformanceTest extends BufferConformanceTest {
}
