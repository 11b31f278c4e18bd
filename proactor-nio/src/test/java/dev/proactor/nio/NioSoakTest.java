package dev.proactor.nio;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.EngineUnderTest;

/** The fault-injection soak on the emulated engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one). */
@EngineUnderTest(NioEngineProvider.NAME)
class NioSoakTest extends AbstractSoakTest {
}
