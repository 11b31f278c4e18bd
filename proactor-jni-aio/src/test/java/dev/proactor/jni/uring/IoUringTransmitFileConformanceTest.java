package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.TransmitFileConformanceTest;

/**
 * The core's file transmission conformance suite on the io_uring engine (read + send, from the engine's duplicate of
 * the file's descriptor or through a {@code FileChannel} that is not the JDK's). Skipped, with the cause, where the
 * native library or io_uring is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringTransmitFileConformanceTest extends TransmitFileConformanceTest {
}
