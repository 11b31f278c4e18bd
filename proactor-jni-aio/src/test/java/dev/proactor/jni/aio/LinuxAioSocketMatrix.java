package dev.proactor.jni.aio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The configurations the socket suites run under on the Linux AIO engine. Its sockets are the epoll engine's own
 * code, which the epoll tests run over the whole matrix; what is new here is that they share the leader wait with
 * the AIO eventfd. So, by default, the matrix's cross-section ({@link ConformanceMatrix#crossSection}: every wait
 * strategy, thread count and leader mode, half the combinations); {@code -Pfull-matrix} runs all of it.
 */
final class LinuxAioSocketMatrix {

    private LinuxAioSocketMatrix() {
    }

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.crossSection(LinuxAioEngineProvider.NAME);
    }
}
