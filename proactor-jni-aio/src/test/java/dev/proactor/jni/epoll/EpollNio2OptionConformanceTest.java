package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 option contracts on our provider on the epoll engine. */
class EpollNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(EpollEngineProvider.NAME);
    }
}
