package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2OptionConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 option contracts on our provider on the io_uring engine. */
class IoUringNio2OptionConformanceTest extends AbstractNio2OptionConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(IoUringEngineProvider.NAME);
    }
}
