package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 group contracts on the JDK's provider (the reference) and our provider on the nio engine. */
class NioNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {

    static Stream<Nio2Target> targets() {
        return Stream.concat(Stream.of(Nio2Target.jdk()), Nio2Target.ofEngine(NioEngineProvider.NAME));
    }
}
