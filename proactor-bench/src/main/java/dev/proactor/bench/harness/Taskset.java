package dev.proactor.bench.harness;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Pinning processes to CPUs with {@code taskset}: whether it is there, and the command prefix. */
public final class Taskset {
    private Taskset() {
    }

    /**
     * Whether {@code taskset} can be run.
     *
     * @return true when found on the PATH
     */
    public static boolean find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The start of a command line, pinned or not.
     *
     * @param pinning whether to pin
     * @param cpus    taskset CPU list
     * @return a new modifiable list: {@code taskset -c CPUS} when pinning, else empty
     */
    public static List<String> prefix(boolean pinning, String cpus) {
        List<String> cmd = new ArrayList<>();
        if (pinning) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        return cmd;
    }
}
