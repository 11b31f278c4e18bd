package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The fault-injection soak on the io_uring engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one), in
 * owner mode too (a single-issuer ring that one pool thread submits to, the others handing their requests to it).
 * Skipped, with the cause, where the native library or io_uring is unavailable.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
class IoUringSoakTest extends AbstractSoakTest {
}
