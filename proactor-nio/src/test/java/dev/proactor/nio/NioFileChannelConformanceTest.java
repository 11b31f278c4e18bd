package dev.proactor.nio;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.Nio2FileTarget;
import java.util.stream.Stream;

/** The FileChannel contracts on the JDK's channel (the reference) and ours on the nio engine's thread-pool file engine. */
class NioFileChannelConformanceTest extends AbstractFileChannelConformanceTest {

    static Stream<Nio2FileTarget> targets() {
        return Stream.concat(Stream.of(Nio2FileTarget.jdk()), Nio2FileTarget.ofEngine(NioEngineProvider.NAME));
    }
}
