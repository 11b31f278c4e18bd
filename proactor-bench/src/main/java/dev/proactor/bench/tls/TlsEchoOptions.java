package dev.proactor.bench.tls;

import java.nio.file.Path;
import java.util.List;

/**
 * The validated command line of {@code tls-echo}.
 *
 * @param sessions      client connections per run
 * @param block         bytes per block
 * @param window        blocks in flight per session in window mode
 * @param modes         modes to run, in order
 * @param seconds       measured seconds per run
 * @param warmup        unmeasured seconds before each run
 * @param clientWarmup  unmeasured seconds the client drives the first server before anything is measured
 * @param serverWarmup  unmeasured seconds the client drives each server before its first run
 * @param runs          runs per server and mode
 * @param transports    {@code nio} and/or {@code epoll}
 * @param out           output directory
 * @param pin           whether to pin server and client with taskset
 * @param serverCpus    taskset CPU list of the servers
 * @param clientCpus    taskset CPU list of the client
 * @param serverThreads server threads
 * @param clientThreads client event loop threads
 * @param readyTimeout  seconds to wait for a server's ready line
 * @param jvmOptions    extra JVM options of the server processes
 */
public record TlsEchoOptions(int sessions, int block, int window, List<Mode> modes, int seconds, int warmup,
                             int clientWarmup, int serverWarmup, int runs, List<String> transports, Path out,
                             boolean pin, String serverCpus, String clientCpus, int serverThreads, int clientThreads,
                             int readyTimeout, List<String> jvmOptions) {

    /** Copies the lists. */
    public TlsEchoOptions {
        modes = List.copyOf(modes);
        transports = List.copyOf(transports);
        jvmOptions = List.copyOf(jvmOptions);
    }
}
