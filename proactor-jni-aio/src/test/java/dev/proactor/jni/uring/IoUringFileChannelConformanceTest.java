package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.Nio2FileTarget;
import java.util.stream.Stream;

/**
 * The FileChannel contracts on ours with the io_uring engine running the files; skipped where io_uring is unavailable.
 */
class IoUringFileChannelConformanceTest extends AbstractFileChannelConformanceTest {

    static Stream<Nio2FileTarget> targets() {
        return Nio2FileTarget.ofEngine(IoUringEngineProvider.NAME);
    }
}
