package dev.proactor.bench.harness;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options a benchmark command uses to launch its servers and its client (a picocli {@code @Mixin}): address,
 * examples jar, {@code java} and its options, taskset pinning and the server's ready timeout. The accessors apply
 * the defaults and checks of {@link OptionChecks}. Only the ready timeout's default differs between commands: the
 * command passes it to the constructor of the instance its {@code @Mixin} field holds (picocli keeps a mixin it
 * finds already set). Filled by picocli on one thread, then read.
 */
public final class LaunchOptions {
    /** The ready timeout's default when the command names none, seconds. */
    public static final int DEFAULT_READY_TIMEOUT = 120;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Loopback address of the servers (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--examples-jar", paramLabel = "PATH",
            description = "The project's examples jar (default examples/target/proactor-examples.jar).")
    private Path examplesJar;

    @Option(names = "--java", paramLabel = "PATH",
            description = "java for the Java servers (default: this JVM; virtual threads need 21+).")
    private String java;

    @Option(names = "--jvm-opts", paramLabel = "\"OPTS\"", defaultValue = OptionChecks.DEFAULT_JVM_OPTS,
            description = "JVM options of the Java servers (default: \"${DEFAULT-VALUE}\").")
    private String jvmOptions;

    @Option(names = "--server-cpus", paramLabel = "CPUS", defaultValue = "0",
            description = "taskset CPU list of the server (default: ${DEFAULT-VALUE}).")
    private String serverCpus;

    @Option(names = "--client-cpus", paramLabel = "CPUS", defaultValue = "1",
            description = "taskset CPU list of the client side: the load generator or wrk, and perf where it runs "
                    + "(default: ${DEFAULT-VALUE}).")
    private String clientCpus;

    @Option(names = "--no-pin", description = "Do not pin with taskset.")
    private boolean noPin;

    // No defaultValue: the field's initial value, set by the constructor, is the default picocli shows and resets to.
    @Option(names = "--ready-timeout", paramLabel = "S",
            description = "Seconds for a server to print its ready line and, with the C load generator, for every "
                    + "session's first echo (default: ${DEFAULT-VALUE}).")
    private int readyTimeout;

    /** Options with the ready timeout defaulting to {@link #DEFAULT_READY_TIMEOUT}. */
    public LaunchOptions() {
        this(DEFAULT_READY_TIMEOUT);
    }

    /**
     * Options with the command's own ready timeout default.
     *
     * @param readyTimeoutDefault the {@code --ready-timeout} default, seconds
     */
    public LaunchOptions(int readyTimeoutDefault) {
        this.readyTimeout = readyTimeoutDefault;
    }

    /** @return the servers' address, {@code --host} */
    public String host() {
        return host;
    }

    /**
     * The examples jar.
     *
     * @param layout the repository layout, for the default
     * @return {@code --examples-jar}, or the layout's default, absolute
     */
    public Path examplesJar(RepoLayout layout) {
        return (examplesJar != null ? examplesJar : layout.defaultExamplesJar()).toAbsolutePath();
    }

    /** @return {@code --java}, or this JVM's {@code java} (see {@link OptionChecks#javaOrThis}) */
    public String java() {
        return OptionChecks.javaOrThis(java);
    }

    /** @return {@code --jvm-opts} split at blanks */
    public List<String> jvmOptions() {
        return OptionChecks.splitOptions(jvmOptions);
    }

    /** @return {@code --server-cpus} as typed */
    public String serverCpus() {
        return serverCpus;
    }

    /** @return {@code --client-cpus} as typed */
    public String clientCpus() {
        return clientCpus;
    }

    /** @return true unless {@code --no-pin} */
    public boolean pin() {
        return !noPin;
    }

    /**
     * The ready timeout.
     *
     * @return {@code --ready-timeout}, seconds
     * @throws UsageException when it is below 1
     */
    public int readyTimeout() throws UsageException {
        return OptionChecks.atLeast("--ready-timeout", readyTimeout, 1);
    }
}
