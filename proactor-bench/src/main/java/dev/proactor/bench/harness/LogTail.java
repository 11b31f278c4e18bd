package dev.proactor.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Extracts the most telling line of a child process's log. */
public final class LogTail {
    private LogTail() {
    }

    /**
     * The line saying "prerequisite missing" if any, else the first line mentioning an error or
     * exception, else the last non-blank line that is not the command echo.
     *
     * @param log log file
     * @return the line, or a note when the log is empty or unreadable
     */
    public static String reason(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "log unreadable: " + e;
        }
        for (String l : lines) {
            if (l.contains("prerequisite missing")) {
                return l.trim();
            }
        }
        for (String l : lines) {
            String lower = l.toLowerCase(Locale.ROOT);
            if (lower.contains("error") || lower.contains("exception") || lower.contains("cannot")) {
                return l.trim();
            }
        }
        for (int i = lines.size() - 1; i >= 0; i--) {
            String l = lines.get(i).trim();
            if (!l.isEmpty() && !l.startsWith("$ ")) {
                return l;
            }
        }
        return "no output (log: " + log + ")";
    }
}
