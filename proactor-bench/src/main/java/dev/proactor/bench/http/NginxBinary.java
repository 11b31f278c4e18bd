package dev.proactor.bench.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An nginx executable and what {@code nginx -V} says about it: the version, and which optional
 * HTTP modules were left out (their temp-path directives would be unknown).
 */
public final class NginxBinary {
    private final Path executable;
    private final String version;
    private final String configureArguments;

    private NginxBinary(Path executable, String version, String configureArguments) {
        this.executable = executable;
        this.version = version;
        this.configureArguments = configureArguments;
    }

    /**
     * Runs {@code nginx -V}.
     *
     * @param executable the nginx binary
     * @return the binary's description
     * @throws IOException          when it is missing or does not run
     * @throws InterruptedException when interrupted
     */
    public static NginxBinary probe(Path executable) throws IOException, InterruptedException {
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            throw new IOException(executable + " is not installed (e.g. apt-get install nginx-light)");
        }
        Process p = new ProcessBuilder(executable.toString(), "-V").redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(executable + " -V did not finish within 10 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException(executable + " -V exited with code " + p.exitValue() + ": " + out.trim());
        }
        return parse(executable, out);
    }

    /**
     * Reads the output of {@code nginx -V}.
     *
     * @param executable the nginx binary
     * @param output     what {@code nginx -V} printed
     * @return the binary's description
     */
    static NginxBinary parse(Path executable, String output) {
        String version = "nginx (version unknown)";
        String configure = "";
        for (String line : output.split("\n")) {
            if (line.startsWith("nginx version:")) {
                version = line.substring("nginx version:".length()).trim();
            } else if (line.startsWith("configure arguments:")) {
                configure = line;
            }
        }
        return new NginxBinary(executable, version, configure);
    }

    /**
     * The executable.
     *
     * @return its path
     */
    public Path executable() {
        return executable;
    }

    /**
     * The version, e.g. {@code nginx/1.22.1}.
     *
     * @return the version
     */
    public String version() {
        return version;
    }

    /**
     * Whether an optional HTTP module is built in.
     *
     * @param module e.g. {@code proxy} for {@code http_proxy_module}
     * @return false when configured with {@code --without-http_MODULE_module}
     */
    public boolean hasHttpModule(String module) {
        return !configureArguments.contains("--without-http_" + module + "_module");
    }
}
