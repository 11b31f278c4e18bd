package dev.proactor.bench.http;

import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.harness.RepoLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * Parsed {@code http-bench} command line (parsed by {@link HttpBenchCli}).
 *
 * @param servers      servers to run, in display order
 * @param sizes        file sizes, in the given order
 * @param connections  wrk connections
 * @param threads      server threads (nginx: worker processes)
 * @param seconds      measured seconds per run
 * @param warmup       unmeasured wrk seconds before each measurement, on the same server process
 * @param warmupWaves  wrk runs the warm-up is split into (each with new connections)
 * @param runs         repetitions of each (size, server)
 * @param out          output directory
 * @param host         loopback address the servers bind and wrk connects to
 * @param examplesJar  the project's examples jar (proactor-http)
 * @param nginx        nginx executable
 * @param wrk          wrk executable (a name is looked up on the PATH)
 * @param wrkThreads   wrk threads
 * @param java         java executable for the Java servers
 * @param jvmOptions   JVM options of the Java servers
 * @param serverCpus   taskset CPU list of the server
 * @param clientCpus   taskset CPU list of wrk
 * @param pin          whether to pin with taskset
 * @param readyTimeout seconds to wait for a server to be ready
 * @param dryRun       print the plan and exit
 */
public record HttpBenchOptions(List<HttpServerDefinition> servers, List<FileSize> sizes, int connections, int threads,
                               int seconds, int warmup, int warmupWaves, int runs, Path out, String host, Path examplesJar, Path nginx,
                               String wrk, int wrkThreads, String java, List<String> jvmOptions, String serverCpus,
                               String clientCpus, boolean pin, int readyTimeout, boolean dryRun) {

    /**
     * Parses the command line.
     *
     * @param argv   arguments after {@code http-bench}
     * @param layout repository layout for defaults
     * @return the options
     * @throws UsageException on a malformed command line
     */
    public static HttpBenchOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        return HttpBenchCli.parse(argv, layout);
    }

    /**
     * Rough duration of the whole benchmark.
     *
     * @param servers servers that will run
     * @return seconds
     */
    public double estimatedSeconds(int servers) {
        return (double) sizes.size() * runs * servers * (warmupSeconds() + seconds + HttpBenchRunner.OVERHEAD_SECONDS);
    }

    /** Seconds of one warm-up wave: the warm-up shared by the waves, at least one second each. */
    public int waveSeconds() {
        return Math.max(1, warmup / warmupWaves);
    }

    /** Seconds of the whole warm-up (0 when there is none). */
    public int warmupSeconds() {
        return warmup == 0 ? 0 : waveSeconds() * warmupWaves;
    }
}
