package dev.proactor.bench.http;

import dev.proactor.bench.cli.Args;
import dev.proactor.bench.cli.UsageException;
import dev.proactor.bench.matrix.RepoLayout;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parsed {@code http-bench} command line.
 *
 * @param servers      servers to run, in display order
 * @param sizes        file sizes, in the given order
 * @param connections  wrk connections
 * @param threads      server threads (nginx: worker processes)
 * @param seconds      measured seconds per run
 * @param warmup       unmeasured wrk seconds before each measurement, on the same server process
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
                               int seconds, int warmup, int runs, Path out, String host, Path examplesJar, Path nginx,
                               String wrk, int wrkThreads, String java, List<String> jvmOptions, String serverCpus,
                               String clientCpus, boolean pin, int readyTimeout, boolean dryRun) {

    /** Default JVM options of the Java servers (as in the echo matrix). */
    public static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g";

    /** Usage text. */
    public static final String USAGE = String.join("\n",
            "usage: java -jar proactor-bench.jar http-bench [options]",
            "",
            "  --servers a,b,...       servers (default " + String.join(",", HttpServerCatalog.DEFAULT) + ")",
            "  --sizes 1k,64k,1m       file sizes (k = 1024, m = 1024*1024), one file per size, GET /SIZE.bin",
            "  --connections 50        wrk connections (-c)",
            "  --threads 1             server threads (proactor pool, Netty event loops, nginx workers)",
            "  --seconds 10            measured seconds per run (wrk -d)",
            "  --warmup 5              unmeasured wrk seconds on the same server process first (0 = none);",
            "                          the JVM servers compile on their one pinned core, 2 s is not enough",
            "  --runs 2                repetitions; the server order rotates between runs",
            "  --out DIR               output directory (default bench-out/http-TIMESTAMP under the repo root)",
            "  --host 127.0.0.1",
            "  --examples-jar PATH     the project's examples jar (default examples/target/proactor-examples.jar)",
            "  --nginx PATH            nginx executable (default /usr/sbin/nginx)",
            "  --wrk PATH              wrk executable (default: wrk on the PATH)",
            "  --wrk-threads 1         wrk threads (-t)",
            "  --java PATH             java for the Java servers (default: this JVM)",
            "  --jvm-opts \"...\"        JVM options of the Java servers (default \"" + DEFAULT_JVM_OPTS + "\")",
            "  --server-cpus 0 --client-cpus 1   taskset CPU lists; --no-pin disables pinning",
            "  --ready-timeout 60      seconds for a server to become ready",
            "  --dry-run               print the plan and the commands, run nothing",
            "servers: " + String.join(",", HttpServerCatalog.names()));

    private static final Set<String> VALUE_OPTIONS = Set.of("servers", "sizes", "connections", "threads", "seconds",
            "warmup", "runs", "out", "host", "examples-jar", "nginx", "wrk", "wrk-threads", "java", "jvm-opts",
            "server-cpus", "client-cpus", "ready-timeout");
    private static final Set<String> FLAG_OPTIONS = Set.of("no-pin", "dry-run", "help");

    /**
     * Whether the arguments ask for help.
     *
     * @param argv arguments
     * @return true for --help / -h
     */
    public static boolean wantsHelp(String[] argv) {
        return Arrays.asList(argv).contains("--help") || Arrays.asList(argv).contains("-h");
    }

    /**
     * Parses the command line.
     *
     * @param argv   arguments after {@code http-bench}
     * @param layout repository layout for defaults
     * @return the options
     * @throws UsageException on a malformed command line
     */
    public static HttpBenchOptions parse(String[] argv, RepoLayout layout) throws UsageException {
        Args a = Args.parse(argv, VALUE_OPTIONS, FLAG_OPTIONS);
        List<HttpServerDefinition> servers = HttpServerCatalog.select(a.list("servers", HttpServerCatalog.DEFAULT));
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path out = Paths.get(a.string("out", layout.root().resolve("bench-out").resolve("http-" + stamp).toString()));
        String java = a.string("java", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        String serverCpus = cpuList(a, "server-cpus", "0");
        String clientCpus = cpuList(a, "client-cpus", "1");
        return new HttpBenchOptions(servers, sizes(a),
                a.integer("connections", 50, 1),
                a.integer("threads", 1, 1),
                a.integer("seconds", 10, 1),
                a.integer("warmup", 5, 0),
                a.integer("runs", 2, 1),
                out.toAbsolutePath(),
                a.string("host", "127.0.0.1"),
                Paths.get(a.string("examples-jar", layout.defaultExamplesJar().toString())).toAbsolutePath(),
                Paths.get(a.string("nginx", "/usr/sbin/nginx")).toAbsolutePath(),
                a.string("wrk", "wrk"),
                a.integer("wrk-threads", 1, 1),
                java, splitOptions(a.string("jvm-opts", DEFAULT_JVM_OPTS)),
                serverCpus,
                clientCpus,
                !a.has("no-pin"),
                a.integer("ready-timeout", 60, 1),
                a.has("dry-run"));
    }

    private static List<FileSize> sizes(Args a) throws UsageException {
        Map<String, FileSize> byLabel = new LinkedHashMap<>();
        for (String s : a.list("sizes", List.of("1k", "64k", "1m"))) {
            FileSize size = FileSize.parse(s);
            if (byLabel.putIfAbsent(size.label(), size) != null) {
                throw new UsageException("size '" + s + "' is listed twice");
            }
        }
        return List.copyOf(byLabel.values());
    }

    private static String cpuList(Args a, String name, String defaultValue) throws UsageException {
        String list = a.string(name, defaultValue);
        if (!list.matches("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*")) {
            throw new UsageException("--" + name + " needs a taskset CPU list such as 0, 0-1 or 0,2, got '" + list + "'");
        }
        return list;
    }

    private static List<String> splitOptions(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                out.add(part);
            }
        }
        return out;
    }

    /**
     * Rough duration of the whole benchmark.
     *
     * @param servers servers that will run
     * @return seconds
     */
    public double estimatedSeconds(int servers) {
        return (double) sizes.size() * runs * servers * (warmup + seconds + HttpBenchRunner.OVERHEAD_SECONDS);
    }
}
