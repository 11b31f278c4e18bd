package dev.proactor.jni.uring;

import dev.proactor.conformance.DatagramConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The core's datagram conformance suite on the io_uring engine. Skipped, with the cause, where the native library or
 * io_uring is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringDatagramConformanceTest extends DatagramConformanceTest {
}
