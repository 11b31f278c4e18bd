package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2FutureWaitConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** How threads wait in socket futures, on the JDK's provider (the reference) and ours on the nio engine. */
class NioNio2FutureWaitConformanceTest extends AbstractNio2FutureWaitConformanceTest {

    static Stream<Nio2Target> targets() {
        return Stream.concat(Stream.of(Nio2Target.jdk()), Nio2Target.ofEngine(NioEngineProvider.NAME));
    }
}
