package dev.proactor.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Facts about the machine and tools for the context lines of a report. */
public final class MachineInfo {
    private MachineInfo() {
    }

    /**
     * This machine's host name.
     *
     * @return the name, or {@code unknown (reason)}
     */
    public static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * The CPU model from {@code /proc/cpuinfo}.
     *
     * @return the model, or {@code model unknown...}
     */
    public static String cpuModel() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
            return "model unknown";
        } catch (IOException e) {
            return "model unknown: " + e.getMessage();
        }
    }

    /**
     * The first line of {@code java -version}.
     *
     * @param java java executable
     * @return the version line, or {@code unknown (reason)}
     * @throws InterruptedException when interrupted
     */
    public static String javaVersion(String java) throws InterruptedException {
        return firstLine(List.of(java, "-version"));
    }

    /**
     * The first non-blank line a command prints (stdout and stderr merged).
     *
     * @param command the command
     * @return the line, or {@code unknown (reason)}
     * @throws InterruptedException when interrupted
     */
    public static String firstLine(List<String> command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "unknown (" + command.get(0) + " timed out)";
            }
            String first = out.lines().map(String::trim).filter(l -> !l.isEmpty()).findFirst().orElse("");
            return first.isEmpty() ? "unknown (no output from " + String.join(" ", command) + ")" : first;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
