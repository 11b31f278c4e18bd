package dev.proactor.nio;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 channel contracts on the JDK's provider (the reference) and our provider on the nio engine. */
class NioNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {

    static Stream<Nio2Target> targets() {
        return Stream.concat(Stream.of(Nio2Target.jdk()), Nio2Target.ofEngine(NioEngineProvider.NAME));
    }
}
