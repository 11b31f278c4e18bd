package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2HandlerThreadsConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** Where NIO.2 handlers run, on our provider on the linux-aio engine. */
class LinuxAioNio2HandlerThreadsConformanceTest extends AbstractNio2HandlerThreadsConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(LinuxAioEngineProvider.NAME);
    }
}
