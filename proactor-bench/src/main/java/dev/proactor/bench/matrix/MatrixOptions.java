package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.UsageException;
import java.nio.file.Path;
import java.util.List;

/**
 * Parsed {@code matrix} command line (parsed by {@link MatrixCli}).
 *
 * @param preset        quick or full
 * @param rows          the table to run
 * @param servers       servers to run, in display order
 * @param runs          repetitions of each point
 * @param seconds       measured seconds per run
 * @param warmup        warm-up seconds per run (after every session had its first echo)
 * @param out           output directory
 * @param host          loopback address servers bind and the load generator connects to
 * @param examplesJar   the project's examples jar
 * @param nativeDir     directory of {@code loadgen} and the C servers ({@code epoll_echo}, {@code uring_echo})
 * @param java          java executable for the Java servers
 * @param jvmOptions    extra JVM options for the Java servers
 * @param serverCpus    taskset CPU list of the server
 * @param clientCpus    taskset CPU list of the load generator
 * @param pin           whether to pin with taskset
 * @param clientThreads load generator threads
 * @param readyTimeout  seconds to wait for a server's ready line and for all first echoes
 * @param dryRun        print the plan and exit
 * @param coalesce      load generator writes all blocks the window allows at once
 * @param disturbed     the operator says other work ran on the machine: the report says so and flags every row
 * @param note          free text for the top of the report, empty when none
 */
public record MatrixOptions(Preset preset, List<Row> rows, List<ServerDefinition> servers, int runs, int seconds,
                            int warmup, Path out, String host, Path examplesJar, Path nativeDir, String java,
                            List<String> jvmOptions, String serverCpus, String clientCpus, boolean pin,
                            int clientThreads, int readyTimeout, boolean dryRun, boolean coalesce,
                            boolean disturbed, String note) {

    /**
     * Parses the matrix command line.
     *
     * @param argv   arguments after {@code matrix}
     * @param layout repository layout for defaults
     * @return the options
     * @throws UsageException on a malformed command line
     */
    public static MatrixOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        return MatrixCli.parse(argv, layout);
    }
}
