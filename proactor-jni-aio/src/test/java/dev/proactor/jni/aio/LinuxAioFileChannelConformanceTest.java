package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.Nio2FileTarget;
import java.util.stream.Stream;

/** The FileChannel contracts on ours with Linux AIO running the files; skipped where Linux AIO is unavailable. */
class LinuxAioFileChannelConformanceTest extends AbstractFileChannelConformanceTest {

    static Stream<Nio2FileTarget> targets() {
        return Nio2FileTarget.ofEngine(LinuxAioEngineProvider.NAME);
    }
}
