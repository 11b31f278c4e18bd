package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 channel contracts on our provider on the epoll engine. */
class EpollNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(EpollEngineProvider.NAME);
    }
}
