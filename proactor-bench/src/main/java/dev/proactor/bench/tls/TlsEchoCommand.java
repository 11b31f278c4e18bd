package dev.proactor.bench.tls;

import dev.proactor.bench.server.ServerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tls-echo}: the TLS echo benchmark ({@code proactor-tls} on each engine against {@code netty-tls-*} on the
 * same transport), see {@link TlsEchoRunner}. Option errors are picocli {@link ParameterException}s (exit 2).
 */
@Command(name = "tls-echo", mixinStandardHelpOptions = true,
        description = "TLS echo benchmark: proactor-tls (TlsChannel) against Netty's SslHandler, both with the JDK "
                + "provider and TLS 1.3, each server in its own JVM pinned to one CPU, one Netty client on another.")
public final class TlsEchoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--sessions", paramLabel = "N", defaultValue = "100",
            description = "Client connections, 1 .. 10000 (default: ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--block", paramLabel = "B", defaultValue = "1024",
            description = "Bytes per block, 1 .. 1048576 (default: ${DEFAULT-VALUE}).")
    int block;

    @Option(names = "--window", paramLabel = "W", defaultValue = "8",
            description = "Blocks in flight per session in window mode, 1 .. 1024 (default: ${DEFAULT-VALUE}).")
    int window;

    @Option(names = "--modes", paramLabel = "M", split = ",", defaultValue = "window,ping-pong",
            description = "window and/or ping-pong (one block in flight, with latency percentiles) "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured seconds per run, 1 .. 3600 (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "5",
            description = "Unmeasured seconds before each run, 0 .. 600 (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--client-warmup", paramLabel = "S", defaultValue = "10",
            description = "Unmeasured seconds the client drives the first server (split over the modes) before "
                    + "anything is measured, so that its JIT, which shares its pinned CPU, is done for every row; "
                    + "0 .. 600 (default: ${DEFAULT-VALUE}).")
    int clientWarmup;

    @Option(names = "--server-warmup", paramLabel = "S", defaultValue = "10",
            description = "Unmeasured seconds the client drives each server (split over the modes) before the "
                    + "first run, so that the server's JIT, which shares its pinned CPU, is done before anything is "
                    + "measured; 0 .. 600 (default: ${DEFAULT-VALUE}).")
    int serverWarmup;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Runs per server and mode (the table shows the median), 1 .. 100 (default: "
                    + "${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--transports", paramLabel = "T", split = ",", defaultValue = "nio,epoll",
            description = "Rows: proactor-tls on engine T against netty-tls-T, for T in nio, epoll "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> transports;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tls-echo-results",
            description = "Output directory for tls-echo.md, tls-echo.csv, tls-echo-runs.csv and the server logs "
                    + "(default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--no-pin", description = "Do not pin the server and the client with taskset.")
    boolean noPin;

    @Option(names = "--server-cpus", paramLabel = "LIST", defaultValue = "0",
            description = "taskset CPU list of the servers (default: ${DEFAULT-VALUE}).")
    String serverCpus;

    @Option(names = "--client-cpus", paramLabel = "LIST", defaultValue = "1",
            description = "taskset CPU list of the client (default: ${DEFAULT-VALUE}).")
    String clientCpus;

    @Option(names = "--server-threads", paramLabel = "T", defaultValue = "1",
            description = "Server threads (event loops, demultiplexor threads), 1 .. 64 (default: ${DEFAULT-VALUE}).")
    int serverThreads;

    @Option(names = "--client-threads", paramLabel = "T", defaultValue = "1",
            description = "Client event loop threads, 1 .. 64 (default: ${DEFAULT-VALUE}).")
    int clientThreads;

    @Option(names = "--ready-timeout", paramLabel = "S", defaultValue = "30",
            description = "Seconds to wait for a server to listen, 1 .. 600 (default: ${DEFAULT-VALUE}).")
    int readyTimeout;

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = "Extra JVM option of the server processes (repeatable), e.g. --jvm-opt=-Xmx1g.")
    List<String> jvmOptions = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        TlsEchoOptions o = options();
        int code = new TlsEchoRunner(o, spec.commandLine().getOut()).run();
        return code == 0 ? 0 : ServerMain.EXIT_FAILURE;
    }

    /**
     * Validates the parsed options.
     *
     * @return the options
     * @throws ParameterException for a value out of range or an unknown mode or transport
     */
    TlsEchoOptions options() {
        check("--sessions", sessions, 1, 10_000);
        check("--block", block, 1, 1 << 20);
        check("--window", window, 1, 1024);
        check("--seconds", seconds, 1, 3600);
        check("--warmup", warmup, 0, 600);
        check("--client-warmup", clientWarmup, 0, 600);
        check("--server-warmup", serverWarmup, 0, 600);
        check("--runs", runs, 1, 100);
        check("--server-threads", serverThreads, 1, 64);
        check("--client-threads", clientThreads, 1, 64);
        check("--ready-timeout", readyTimeout, 1, 600);
        List<Mode> m = new ArrayList<>();
        for (String s : new LinkedHashSet<>(modes)) {
            try {
                m.add(Mode.parse(s.trim()));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--modes: " + e.getMessage());
            }
        }
        List<String> t = new ArrayList<>();
        for (String s : new LinkedHashSet<>(transports)) {
            String v = s.trim();
            if (!ServerRow.TRANSPORTS.contains(v)) {
                throw new ParameterException(spec.commandLine(),
                        "--transports must be nio and/or epoll, was '" + s + "'");
            }
            t.add(v);
        }
        if (!noPin && (serverCpus.isBlank() || clientCpus.isBlank())) {
            throw new ParameterException(spec.commandLine(), "--server-cpus and --client-cpus must not be empty");
        }
        return new TlsEchoOptions(sessions, block, window, m, seconds, warmup, clientWarmup, serverWarmup, runs, t,
                out, !noPin, serverCpus, clientCpus, serverThreads, clientThreads, readyTimeout, jvmOptions);
    }

    private void check(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(),
                    option + " must be " + min + " .. " + max + ", was " + value);
        }
    }
}
