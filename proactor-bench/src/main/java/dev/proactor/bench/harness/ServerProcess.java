package dev.proactor.bench.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running server process: its stdout is scanned for the ready line ({@code listening on ...})
 * and copied to the log, its stderr goes straight to the log.
 */
public final class ServerProcess {
    private static final String READY_PREFIX = "listening on ";

    private final Process process;
    private final Path log;
    private final ProcessRegistry registry;
    private final CompletableFuture<String> ready = new CompletableFuture<>();

    private ServerProcess(Process process, Path log, ProcessRegistry registry) {
        this.process = process;
        this.log = log;
        this.registry = registry;
    }

    /**
     * Starts the server.
     *
     * @param command  command line
     * @param log      log file (created / appended)
     * @param registry live-process registry
     * @return the process
     * @throws IOException when the process cannot be started
     */
    public static ServerProcess start(List<String> command, Path log, ProcessRegistry registry) throws IOException {
        Files.writeString(log, "$ " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        registry.add(p);
        ServerProcess sp = new ServerProcess(p, log, registry);
        Thread pump = new Thread(sp::pumpStdout, "server-stdout");
        pump.setDaemon(true);
        pump.start();
        return sp;
    }

    private void pumpStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                if (line.startsWith(READY_PREFIX)) {
                    ready.complete(line);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
            return;
        }
        ready.complete(null);
    }

    /**
     * Waits for the ready line.
     *
     * @param timeoutSeconds how long to wait
     * @return the outcome
     * @throws InterruptedException when interrupted
     */
    public Readiness awaitReady(int timeoutSeconds) throws InterruptedException {
        String line;
        try {
            line = ready.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return Readiness.notReady(-1, "no ready line within " + timeoutSeconds + " s (log: " + log + ")");
        } catch (ExecutionException e) {
            return Readiness.notReady(-1, "cannot read the server's output: " + e.getCause());
        }
        if (line != null) {
            return Readiness.ready(line);
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            return Readiness.notReady(-1, "server closed its stdout without a ready line (log: " + log + ")");
        }
        return Readiness.notReady(process.exitValue(), LogTail.reason(log) + " (exit code " + process.exitValue() + ")");
    }

    /**
     * The process id (the server itself: {@code taskset} executes it in place).
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Whether the process is still running.
     *
     * @return true when alive
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Exit code of a process that has ended.
     *
     * @return the exit code
     */
    public int exitValue() {
        return process.exitValue();
    }

    /**
     * SIGTERM, wait up to 10 s, then SIGKILL.
     *
     * @throws InterruptedException when interrupted
     */
    public void stop() throws InterruptedException {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    System.err.println("  server did not stop within 10 s after SIGTERM, killing it (log: " + log + ")");
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } finally {
            registry.remove(process);
        }
    }

    /**
     * Result of waiting for the ready line.
     *
     * @param ready     whether the line came
     * @param readyLine the line, when ready
     * @param exitCode  exit code when the process ended first, else -1
     * @param reason    why it is not ready
     */
    public record Readiness(boolean ready, String readyLine, int exitCode, String reason) {
        static Readiness ready(String line) {
            return new Readiness(true, line, -1, "");
        }

        static Readiness notReady(int exitCode, String reason) {
            return new Readiness(false, "", exitCode, reason);
        }
    }
}
