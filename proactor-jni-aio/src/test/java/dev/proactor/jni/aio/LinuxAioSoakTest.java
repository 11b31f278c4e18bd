package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.SoakSettings;
import java.util.stream.Stream;

/**
 * The fault-injection soak on the Linux AIO engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one).
 * Skipped, with the cause, where the native library, epoll or Linux AIO is unavailable.
 */
class LinuxAioSoakTest extends AbstractSoakTest {

    static Stream<SoakSettings> configurations() {
        return SoakSettings.of(LinuxAioEngineProvider.NAME);
    }
}
