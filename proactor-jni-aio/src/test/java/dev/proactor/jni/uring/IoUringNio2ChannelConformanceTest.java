package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 channel contracts on our provider on the io_uring engine. */
class IoUringNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(IoUringEngineProvider.NAME);
    }
}
