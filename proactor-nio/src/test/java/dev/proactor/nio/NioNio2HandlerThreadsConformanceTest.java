package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** Where NIO.2 handlers run, on the JDK's provider (the reference) and our provider on the nio engine. */
class NioNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {

    static Stream<Nio2Target> targets() {
        return Stream.concat(Stream.of(Nio2Target.jdk()), Nio2Target.ofEngine(NioEngineProvider.NAME));
    }
}
