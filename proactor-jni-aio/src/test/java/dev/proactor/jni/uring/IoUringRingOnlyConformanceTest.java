package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The core's socket conformance suite on the io_uring engine with {@code proactor.uring.tryFirst=false}: every
 * stream read and write is a ring request (no first try at start), so the ring paths (RECV with poll-first, SEND,
 * partial-send continuation, cancel of requests in the ring) are exercised on every wait strategy, thread count and
 * leader mode, not only when the socket is empty or full. Skipped, with the cause, where io_uring is unavailable.
 */
@WithSystemProperty(name = IoUringFeatures.TRY_FIRST_PROPERTY, value = "false")
@EngineUnderTest(value = IoUringEngineProvider.NAME, suite = Suite.SOCKETS_RING_ONLY)
class IoUringRingOnlyConformanceTest extends AbstractConformanceTest {
}
