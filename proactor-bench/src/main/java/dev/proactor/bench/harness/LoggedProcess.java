package dev.proactor.bench.harness;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Starts a client process (load generator, wrk) with its output in files: the command line and its stderr are
 * appended to the log, its stdout goes to {@code log + ".out"}, its stdin is {@code /dev/null}. The started
 * process is added to the registry; the caller removes it when it ends.
 */
public final class LoggedProcess {
    private LoggedProcess() {
    }

    /**
     * The file that receives the process's stdout.
     *
     * @param log the log file
     * @return {@code log + ".out"}
     */
    public static Path stdoutOf(Path log) {
        return log.resolveSibling(log.getFileName() + ".out");
    }

    /**
     * Starts the process.
     *
     * @param name     what it is, for the message ({@code cannot start NAME: ...})
     * @param command  its command line
     * @param log      log for the command and its stderr
     * @param registry live-process registry, which gets the process
     * @return the started process
     * @throws RunFailure when it cannot be started
     */
    public static Process start(String name, List<String> command, Path log, ProcessRegistry registry)
            throws RunFailure {
        Process p;
        try {
            Files.writeString(log, "$ " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            p = new ProcessBuilder(command)
                    .redirectOutput(stdoutOf(log).toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new RunFailure("cannot start " + name + ": " + e);
        }
        registry.add(p);
        return p;
    }
}
