package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The configurations the socket suites run under on the Linux AIO engine. Its sockets are the epoll engine's own
 * code, which runs the whole matrix in the epoll tests; here, by default, every wait strategy and leader mode with 1
 * and 4 threads, to keep the build short. {@code -Dproactor.linuxAio.fullMatrix=true} runs the whole matrix.
 */
final class LinuxAioSocketMatrix {

    private LinuxAioSocketMatrix() {
    }

    static Stream<ProactorConfig> configurations() {
        Stream<ProactorConfig> all = ConformanceMatrix.of(LinuxAioEngineProvider.NAME);
        if (Boolean.getBoolean("proactor.linuxAio.fullMatrix")) {
            return all;
        }
        return all.filter(c -> c.threads() != 2);
    }
}
