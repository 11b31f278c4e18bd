package dev.proactor.nio;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.SoakSettings;
import java.util.stream.Stream;

/** The fault-injection soak on the emulated engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one). */
class NioSoakTest extends AbstractSoakTest {

    static Stream<SoakSettings> configurations() {
        return SoakSettings.of(NioEngineProvider.NAME);
    }
}
