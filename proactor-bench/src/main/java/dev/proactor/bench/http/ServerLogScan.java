package dev.proactor.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Looks through a server's log for warnings and errors after it stopped: slf4j {@code WARN} /
 * {@code ERROR} lines and exceptions (proactor-http), {@code connection error:} lines and a
 * non-zero count of other I/O errors (netty-http), and nginx's {@code [warn]} and worse.
 */
final class ServerLogScan {
    private static final List<String> MARKERS = List.of(" WARN ", " ERROR ", "Exception", "connection error:",
            "[warn]", "[error]", "[crit]", "[alert]", "[emerg]");
    private static final String NETTY_SUMMARY = "by other I/O errors: ";

    private ServerLogScan() {
    }

    /**
     * Counts the lines that report a problem.
     *
     * @param log the server's log
     * @return empty when there are none, else the count and the first such line
     */
    static Optional<String> problems(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.of("log unreadable: " + e);
        }
        int count = 0;
        String first = null;
        for (String line : lines) {
            if (line.startsWith("$ ") || !isProblem(line)) {
                continue;
            }
            count++;
            if (first == null) {
                first = line.trim();
            }
        }
        return count == 0 ? Optional.empty()
                : Optional.of(count + " warning/error line(s) in " + log.getFileName() + ", first: " + first);
    }

    private static boolean isProblem(String line) {
        for (String m : MARKERS) {
            if (line.contains(m)) {
                return true;
            }
        }
        int i = line.indexOf(NETTY_SUMMARY);
        return i >= 0 && !line.substring(i + NETTY_SUMMARY.length()).trim().equals("0");
    }
}
