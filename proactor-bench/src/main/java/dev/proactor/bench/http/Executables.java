package dev.proactor.bench.http;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds programs: a name is looked up on the PATH, a path is taken as is. */
final class Executables {
    private Executables() {
    }

    /**
     * Locates an executable.
     *
     * @param nameOrPath a bare name ({@code wrk}) or a path ({@code /usr/bin/wrk})
     * @return the executable, or empty when there is none
     */
    static Optional<Path> find(String nameOrPath) {
        if (nameOrPath.contains(File.separator)) {
            Path p = Path.of(nameOrPath).toAbsolutePath();
            return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, nameOrPath);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
