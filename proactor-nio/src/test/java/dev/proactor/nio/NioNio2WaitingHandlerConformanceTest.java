package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/**
 * The NIO.2 contracts of handlers and callers that wait, on the JDK's provider (the reference) and our provider on
 * the nio engine.
 */
class NioNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {

    static Stream<Nio2Target> targets() {
        return Stream.concat(Stream.of(Nio2Target.jdk()), Nio2Target.ofEngine(NioEngineProvider.NAME));
    }
}
