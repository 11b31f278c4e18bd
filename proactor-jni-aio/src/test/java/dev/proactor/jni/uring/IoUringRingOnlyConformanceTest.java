package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractConformanceTest;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.conformance.EngineUnderTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The core's socket conformance suite on the io_uring engine with {@code proactor.uring.tryFirst=false}: every
 * stream read and write is a ring request (no first try at start), so the ring paths (RECV with poll-first, SEND,
 * partial-send continuation, cancel of requests in the ring) are exercised on every wait strategy, thread count and
 * leader mode, not only when the socket is empty or full. Skipped, with the cause, where io_uring is unavailable.
 */
@EngineUnderTest(value = IoUringEngineProvider.NAME, suite = Suite.SOCKETS_RING_ONLY)
class IoUringRingOnlyConformanceTest extends AbstractConformanceTest {

    @BeforeAll
    static void ringOnly() {
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false");
    }

    @AfterAll
    static void restore() {
        System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
    }
}
