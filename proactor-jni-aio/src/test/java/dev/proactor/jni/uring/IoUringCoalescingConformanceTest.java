package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.EngineUnderTest;
import org.junit.jupiter.api.Tag;

/**
 * The core's socket conformance suite on the io_uring engine with completion coalescing on
 * ({@code proactor.uring.batchWaitMicros=200}, 32 completions): its owner-leader configurations wait for batches
 * (the shared ones ignore the setting). Skipped, with the cause, where the engine is unavailable; on a kernel
 * before 6.12 it runs without coalescing.
 */
@WithSystemProperty(name = IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY, value = "200")
@EngineUnderTest(IoUringEngineProvider.NAME)
@Tag("non-default")
class IoUringCoalescingConformanceTest extends AbstractConformanceTest {
}
