package dev.proactor.bench.costs;

import dev.proactor.bench.matrix.MatrixOptions;
import dev.proactor.bench.matrix.Preset;
import dev.proactor.bench.matrix.Row;
import dev.proactor.bench.matrix.ServerDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parsed {@code costs} command line (parsed by {@link CostsCli}).
 *
 * @param rounds       interleaved rounds
 * @param rows         the workload rows (one server thread, ping-pong)
 * @param servers      servers, in the order of round 1
 * @param rate         fixed offered rate for every row, 0 = half the lowest round-1 saturation of each row
 * @param warmup       load generator warm-up seconds after every session had its first echo
 * @param window       seconds perf counts, inside the generator's measured window
 * @param out          output directory
 * @param host         loopback address
 * @param examplesJar  the project's examples jar
 * @param nativeDir    directory of {@code loadgen} and the C servers
 * @param java         java executable of the Java servers
 * @param jvmOptions   JVM options of the Java servers
 * @param serverCpus   taskset CPU list of the server
 * @param clientCpus   taskset CPU list of the load generator (and perf)
 * @param pin          whether to pin with taskset
 * @param readyTimeout seconds for a server's ready line and for every session's first echo
 * @param perf         the perf executable
 * @param dryRun       print the plan, run nothing
 * @param reconnect    every message on a new connection (the load generator's {@code --reconnect}): a message is
 *                     then a connection accepted, echoed once and closed
 */
public record CostsOptions(int rounds, List<Row> rows, List<ServerDefinition> servers, long rate, int warmup,
                           int window, Path out, String host, Path examplesJar, Path nativeDir, String java,
                           List<String> jvmOptions, String serverCpus, String clientCpus, boolean pin,
                           int readyTimeout, String perf, boolean dryRun, boolean reconnect) {

    /** Seconds the generator measures beyond the perf window: half before perf starts, half after it ends. */
    public static final int MARGIN_SECONDS = 1;

    /**
     * Copies the lists.
     *
     * @param rounds       rounds
     * @param rows         rows
     * @param servers      servers
     * @param rate         fixed rate or 0
     * @param warmup       warm-up seconds
     * @param window       perf seconds
     * @param out          output directory
     * @param host         address
     * @param examplesJar  examples jar
     * @param nativeDir    native directory
     * @param java         java
     * @param jvmOptions   JVM options
     * @param serverCpus   server CPUs
     * @param clientCpus   client CPUs
     * @param pin          pin
     * @param readyTimeout ready timeout
     * @param perf         perf
     * @param dryRun       dry run
     * @param reconnect    a connection per message
     */
    public CostsOptions {
        rows = List.copyOf(rows);
        servers = List.copyOf(servers);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * The seconds the load generator measures: the perf window and its margins.
     *
     * @return {@code window + MARGIN_SECONDS}
     */
    public int loadgenSeconds() {
        return window + MARGIN_SECONDS;
    }

    /**
     * What the load generator gets beyond the matrix's command line: the offered rate of a fixed-rate run, and
     * {@code --reconnect}.
     *
     * @param fixedRate messages per second, 0 for a saturation run
     * @return the extra arguments, a new list
     */
    public List<String> loadgenExtras(long fixedRate) {
        List<String> extras = new ArrayList<>();
        if (fixedRate > 0) {
            extras.addAll(List.of("--rate", Long.toString(fixedRate)));
        }
        if (reconnect) {
            extras.add("--reconnect");
        }
        return extras;
    }

    /**
     * The same runs as matrix options, for the matrix's {@link dev.proactor.bench.matrix.Launcher}: one client
     * thread, no coalescing.
     *
     * @return the options
     */
    public MatrixOptions asMatrixOptions() {
        return new MatrixOptions(Preset.QUICK, rows, servers, rounds, loadgenSeconds(), warmup, out, host,
                examplesJar, nativeDir, java, jvmOptions, serverCpus, clientCpus, pin, 1, readyTimeout, dryRun,
                false, false, "");
    }
}
