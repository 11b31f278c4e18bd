package dev.proactor.bench.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Temporary directories that other users (nginx workers) can read, and their deletion. */
final class TempDirs {
    private TempDirs() {
    }

    /**
     * Creates a directory under {@code java.io.tmpdir} with mode 755, deleted at the latest when
     * the JVM exits.
     *
     * @param prefix name prefix
     * @return the directory
     * @throws IOException when it cannot be created
     */
    static Path create(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        deleteOnExit(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /**
     * Also deletes a directory when the JVM exits (e.g. on Ctrl-C during a run); a failure is
     * printed on stderr.
     *
     * @param dir the directory
     */
    static void deleteOnExit(Path dir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                delete(dir);
            } catch (IOException e) {
                System.err.println("http-bench: cannot delete " + dir + ": " + e);
            }
        }, "http-bench-cleanup"));
    }

    /**
     * Deletes a directory tree (nothing when it does not exist).
     *
     * @param dir the directory
     * @throws IOException when something cannot be deleted
     */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
