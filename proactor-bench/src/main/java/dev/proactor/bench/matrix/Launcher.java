package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.Taskset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Builds the command lines of the servers and the load generator, and checks their files. */
public final class Launcher {
    private final MatrixOptions options;
    private final RepoLayout layout;
    private final boolean tasksetAvailable;

    /**
     * Creates the launcher.
     *
     * @param options          matrix options
     * @param layout           repository layout (to run the bench jar again)
     * @param tasksetAvailable whether {@code taskset} is on the PATH
     */
    public Launcher(MatrixOptions options, RepoLayout layout, boolean tasksetAvailable) {
        this.options = options;
        this.layout = layout;
        this.tasksetAvailable = tasksetAvailable;
    }

    /**
     * Whether processes are pinned.
     *
     * @return true when pinning was asked and taskset exists
     */
    public boolean pinning() {
        return options.pin() && tasksetAvailable;
    }

    /**
     * The load generator binary.
     *
     * @return path of {@code loadgen}
     */
    public Path loadgen() {
        return options.nativeDir().resolve("loadgen");
    }

    private Path nativeServer(ServerDefinition server) {
        return options.nativeDir().resolve(server.command());
    }

    /**
     * Why a server cannot be launched at all, checked before the run.
     *
     * @param server the server
     * @return the reason, or empty when its files are there
     */
    public Optional<String> missingFiles(ServerDefinition server) {
        switch (server.kind()) {
            case NATIVE_C:
                return Files.isExecutable(nativeServer(server)) ? Optional.empty()
                        : Optional.of("C server not built: " + nativeServer(server)
                        + " is missing (gcc missing at build time? see the mvn package output)");
            case PROACTOR:
                return Files.isRegularFile(options.examplesJar()) ? Optional.empty()
                        : Optional.of("examples jar not found: " + options.examplesJar()
                        + " (build the examples module or pass --examples-jar)");
            case BENCH_JAVA:
                return Optional.empty();
            default:
                throw new AssertionError(server.kind());
        }
    }

    /**
     * The server's command line.
     *
     * @param server the server
     * @param row    the table point
     * @param port   port to listen on
     * @return the command
     */
    public List<String> serverCommand(ServerDefinition server, Row row, int port) {
        List<String> cmd = pinned(options.serverCpus());
        switch (server.kind()) {
            case NATIVE_C:
                cmd.add(nativeServer(server).toString());
                cmd.addAll(List.of("--host", options.host()));
                break;
            case BENCH_JAVA:
                cmd.add(options.java());
                cmd.addAll(options.jvmOptions());
                cmd.addAll(server.properties());
                cmd.addAll(layout.selfLaunchArgs());
                cmd.add(server.command());
                cmd.addAll(server.arguments());
                cmd.addAll(List.of("--host", options.host()));
                break;
            case PROACTOR:
                cmd.add(options.java());
                cmd.addAll(options.jvmOptions());
                cmd.addAll(server.properties());
                cmd.addAll(List.of("-jar", options.examplesJar().toString(), "echo-server"));
                cmd.addAll(server.arguments());
                break;
            default:
                throw new AssertionError(server.kind());
        }
        cmd.addAll(List.of("--port", Integer.toString(port),
                "--threads", Integer.toString(row.threads()),
                "--delay-us", Integer.toString(row.delayUs())));
        return cmd;
    }

    /**
     * The load generator's command line.
     *
     * @param row       the table point
     * @param port      server port
     * @param serverPid server process id, for its CPU use; 0 = do not measure
     * @return the command
     */
    public List<String> loadgenCommand(Row row, int port, long serverPid) {
        List<String> cmd = pinned(options.clientCpus());
        cmd.add(loadgen().toString());
        cmd.addAll(List.of(
                "--host", options.host(),
                "--port", Integer.toString(port),
                "--sessions", Integer.toString(row.sessions()),
                "--block", Integer.toString(row.block()),
                "--window", Integer.toString(row.window()),
                "--seconds", Integer.toString(options.seconds()),
                "--warmup", Integer.toString(options.warmup()),
                "--threads", Integer.toString(options.clientThreads()),
                "--ready-timeout", Integer.toString(options.readyTimeout())));
        if (serverPid > 0) {
            cmd.addAll(List.of("--server-pid", Long.toString(serverPid)));
        }
        if (options.coalesce()) {
            cmd.add("--coalesce");
        }
        return cmd;
    }

    private List<String> pinned(String cpus) {
        return Taskset.prefix(pinning(), cpus);
    }
}
