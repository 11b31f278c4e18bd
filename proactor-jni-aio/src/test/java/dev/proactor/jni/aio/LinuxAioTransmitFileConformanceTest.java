package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.TransmitFileConformanceTest;
import java.util.stream.Stream;

/**
 * The core's file transmission (sendfile) conformance suite on the Linux AIO engine, whose sockets the epoll engine
 * serves under the same leader wait as the AIO files (see {@link LinuxAioSocketMatrix} for the configurations).
 * Skipped, with the cause, where the native library, epoll or Linux AIO is unavailable.
 */
class LinuxAioTransmitFileConformanceTest extends TransmitFileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return LinuxAioSocketMatrix.configurations();
    }
}
