package dev.proactor.bench.http;

import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.Taskset;
import dev.proactor.bench.server.tomcat.TomcatHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Builds the command lines of the servers and of wrk, and checks the servers' files. */
final class HttpLauncher {
    private final HttpBenchOptions options;
    private final RepoLayout layout;
    private final boolean pinning;

    /**
     * Creates the launcher.
     *
     * @param options benchmark options
     * @param layout  repository layout (to run this jar again for netty-http)
     * @param pinning whether processes are pinned with taskset
     */
    HttpLauncher(HttpBenchOptions options, RepoLayout layout, boolean pinning) {
        this.options = options;
        this.layout = layout;
        this.pinning = pinning;
    }

    /**
     * Whether processes are pinned.
     *
     * @return true when pinning was asked and taskset exists
     */
    boolean pinning() {
        return pinning;
    }

    /**
     * Why a server cannot be launched at all, checked before the run (nginx is probed separately).
     *
     * @param server the server
     * @return the reason, or empty
     */
    Optional<String> missingFiles(HttpServerDefinition server) {
        if (server.kind() == HttpServerDefinition.Kind.PROACTOR && !Files.isRegularFile(options.examplesJar())) {
            return Optional.of("examples jar not found: " + options.examplesJar()
                    + " (build the examples module or pass --examples-jar)");
        }
        return Optional.empty();
    }

    /**
     * The server's command line.
     *
     * @param server      the server
     * @param port        port to listen on
     * @param root        document root
     * @param nginxConfig the generated configuration (nginx only, else ignored)
     * @return the command
     */
    List<String> serverCommand(HttpServerDefinition server, int port, Path root, Path nginxConfig) {
        List<String> cmd = pinned(options.serverCpus());
        String threads = Integer.toString(options.threads());
        switch (server.kind()) {
            case PROACTOR:
                cmd.add(options.java());
                cmd.addAll(options.jvmOptions());
                cmd.addAll(server.properties());
                cmd.addAll(List.of("-jar", options.examplesJar().toString(), "http-server",
                        "--host", options.host(), "--port", Integer.toString(port), "--root", root.toString(),
                        "--threads", threads,
                        "--max-connections", Integer.toString(Math.max(1000, 2 * options.connections()))));
                break;
            case NETTY:
                cmd.add(options.java());
                cmd.addAll(options.jvmOptions());
                cmd.addAll(server.properties());
                cmd.addAll(layout.selfLaunchArgs());
                cmd.addAll(List.of("netty-http", "--host", options.host(), "--port", Integer.toString(port),
                        "--root", root.toString(), "--threads", threads));
                break;
            case TOMCAT:
                cmd.add(options.java());
                cmd.addAll(options.jvmOptions());
                cmd.addAll(server.properties());
                cmd.addAll(layout.selfLaunchArgs());
                cmd.addAll(List.of(TomcatHttpServer.NAME, "--host", options.host(), "--port", Integer.toString(port),
                        "--root", root.toString(), "--threads", threads));
                break;
            case NGINX:
                cmd.addAll(List.of(options.nginx().toString(), "-e", "stderr",
                        "-p", nginxConfig.getParent().toString(), "-c", nginxConfig.toString()));
                break;
            default:
                throw new AssertionError(server.kind());
        }
        cmd.addAll(server.arguments());
        return cmd;
    }

    /**
     * The wrk command line.
     *
     * @param wrk     the wrk executable
     * @param port    server port
     * @param size    which file
     * @param seconds duration
     * @return the command
     */
    List<String> wrkCommand(Path wrk, int port, FileSize size, int seconds) {
        List<String> cmd = pinned(options.clientCpus());
        cmd.addAll(List.of(wrk.toString(),
                "-t" + options.wrkThreads(), "-c" + options.connections(), "-d" + seconds + "s", "--latency",
                url(port, size)));
        return cmd;
    }

    /**
     * The URL of a file.
     *
     * @param port server port
     * @param size which file
     * @return {@code http://HOST:PORT/SIZE.bin}
     */
    String url(int port, FileSize size) {
        return "http://" + hostForUrl(options.host()) + ":" + port + size.path();
    }

    /**
     * A host as it appears in a URL or an nginx {@code listen}: IPv6 literals in brackets.
     *
     * @param host the host
     * @return the host, bracketed when it is an IPv6 literal
     */
    static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private List<String> pinned(String cpus) {
        return Taskset.prefix(pinning, cpus);
    }
}
