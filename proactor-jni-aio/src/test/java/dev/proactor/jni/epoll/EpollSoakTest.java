package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.SoakSettings;
import java.util.stream.Stream;

/**
 * The fault-injection soak on the epoll engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one).
 * Skipped, with the cause, where the native library or epoll is unavailable.
 */
class EpollSoakTest extends AbstractSoakTest {

    static Stream<SoakSettings> configurations() {
        return SoakSettings.of(EpollEngineProvider.NAME);
    }
}
