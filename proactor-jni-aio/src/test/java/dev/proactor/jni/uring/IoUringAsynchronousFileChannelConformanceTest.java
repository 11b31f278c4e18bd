package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractAsynchronousFileChannelConformanceTest;
import dev.proactor.conformance.Nio2FileTarget;
import java.util.stream.Stream;

/**
 * The AsynchronousFileChannel contracts on ours with the io_uring engine running the files; skipped where io_uring is
 * unavailable.
 */
class IoUringAsynchronousFileChannelConformanceTest extends AbstractAsynchronousFileChannelConformanceTest {

    static Stream<Nio2FileTarget> targets() {
        return Nio2FileTarget.ofEngine(IoUringEngineProvider.NAME);
    }
}
