package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.SoakSettings;
import java.util.stream.Stream;

/**
 * The fault-injection soak on the io_uring engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one),
 * in the shared and dedicated leader modes and in owner mode (a single-issuer ring that one pool thread submits
 * to, the others handing their requests to it).
 * Skipped, with the cause, where the native library or io_uring is unavailable.
 */
class IoUringSoakTest extends AbstractSoakTest {

    static Stream<SoakSettings> configurations() {
        return SoakSettings.of(IoUringEngineProvider.NAME, "shared,dedicated,owner");
    }
}
