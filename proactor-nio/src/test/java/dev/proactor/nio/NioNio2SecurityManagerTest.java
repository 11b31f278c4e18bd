package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2SecurityManagerTest;
import java.util.List;

/** The JDK's permission checks on the JDK's provider (the reference) and on ours over the nio engine. */
class NioNio2SecurityManagerTest extends AbstractNio2SecurityManagerTest {

    static List<String> targets() {
        return List.of(JDK, NioEngineProvider.NAME);
    }
}
