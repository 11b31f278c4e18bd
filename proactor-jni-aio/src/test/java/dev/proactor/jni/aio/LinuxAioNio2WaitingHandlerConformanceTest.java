package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.Nio2Target;
import java.util.stream.Stream;

/** The NIO.2 contracts of handlers and callers that wait, on our provider on the linux-aio engine. */
class LinuxAioNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {

    static Stream<Nio2Target> targets() {
        return Nio2Target.ofEngine(LinuxAioEngineProvider.NAME);
    }
}
