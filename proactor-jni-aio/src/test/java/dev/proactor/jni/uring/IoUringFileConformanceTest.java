package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.FileConformanceTest;

/**
 * The core's file conformance suite on the io_uring engine, which runs file reads and writes itself ({@code
 * IORING_OP_READ}/{@code WRITE} at the position); skipped, with the cause, where the native library or io_uring is
 * unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringFileConformanceTest extends FileConformanceTest {
}
