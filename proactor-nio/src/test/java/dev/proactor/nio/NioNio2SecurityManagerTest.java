package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2SecurityManagerTest;
import dev.proactor.conformance.EngineUnderTest;

/** The JDK's permission checks on the JDK's provider (the reference) and on ours over the nio engine. */
@EngineUnderTest({NioEngineProvider.NAME})
class NioNio2SecurityManagerTest extends AbstractNio2SecurityManagerTest {
}
