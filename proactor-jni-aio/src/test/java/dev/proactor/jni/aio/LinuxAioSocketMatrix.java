package dev.proactor.jni.aio;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import java.util.stream.Stream;

/**
 * The configurations the socket suites run under on the Linux AIO engine. Its sockets are the epoll engine's own
 * code, which the epoll tests run over the whole matrix; what is new here is that they share the leader wait with
 * the AIO eventfd. So, by default, the default wait strategy ({@code epoll}) with 1 and 4 threads in both leader
 * modes, and {@code busy-poll} with 2 threads and a dedicated leader, to keep the build short;
 * {@code -Dproactor.linuxAio.fullMatrix=true} runs the whole matrix.
 */
final class LinuxAioSocketMatrix {

    private LinuxAioSocketMatrix() {
    }

    static Stream<ProactorConfig> configurations() {
        Stream<ProactorConfig> all = ConformanceMatrix.of(LinuxAioEngineProvider.NAME);
        if (Boolean.getBoolean("proactor.linuxAio.fullMatrix")) {
            return all;
        }
        return all.filter(c -> "busy-poll".equals(c.waitStrategy())
                ? c.threads() == 2 && c.leader() == LeaderMode.DEDICATED
                : c.threads() != 2);
    }
}
