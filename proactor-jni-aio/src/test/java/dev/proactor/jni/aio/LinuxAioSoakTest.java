package dev.proactor.jni.aio;

import dev.proactor.LeaderMode;
import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.SoakSettings;
import java.util.stream.Stream;

/**
 * The fault-injection soak on the Linux AIO engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one).
 * In the default build only the shared-leader run (its share of the soak's seconds), since the sockets are the epoll
 * engine's, soaked in full by its own test; when {@code proactor.soak.seconds} is set (as {@code -Psoak} does), every
 * leader mode. Skipped, with the cause, where the native library, epoll or Linux AIO is unavailable.
 */
class LinuxAioSoakTest extends AbstractSoakTest {

    static Stream<SoakSettings> configurations() {
        Stream<SoakSettings> all = SoakSettings.of(LinuxAioEngineProvider.NAME);
        if (System.getProperty(SoakSettings.SECONDS) != null) {
            return all;
        }
        return all.filter(s -> s.config().leader() == LeaderMode.SHARED);
    }
}
