package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractAsynchronousFileChannelConformanceTest;
import dev.proactor.conformance.Nio2FileTarget;
import java.util.stream.Stream;

/**
 * The AsynchronousFileChannel contracts on ours with Linux AIO running the files; skipped where Linux AIO is
 * unavailable.
 */
class LinuxAioAsynchronousFileChannelConformanceTest extends AbstractAsynchronousFileChannelConformanceTest {

    static Stream<Nio2FileTarget> targets() {
        return Nio2FileTarget.ofEngine(LinuxAioEngineProvider.NAME);
    }
}
