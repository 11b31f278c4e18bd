package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2GroupConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 group contracts on our provider on the epoll engine. */
class EpollNio2GroupConformanceTest extends AbstractNio2GroupConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(EpollEngineProvider.NAME);
    }
}
