package dev.proactor.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code proactor-bench/results/} to conclusions: each measurement folder holds a {@code summary.md}, a
 * {@code results.csv} and small charts. Raw output (server and load-generator logs, {@code perf} output, collapsed
 * stacks), scripts and programs, and any file over 200 KiB fail the build, naming the files: raw output belongs in
 * the ignored {@code proactor-bench/raw/}, reusable scripts in {@code proactor-bench/scripts/}.
 *
 * <p>The check walks the file system, not the git index, so a benchmark run that wrote into {@code results/} is
 * caught before it is committed.
 */
class ResultsTreeTest {

    /** Largest file allowed under {@code results/}: a summary, a CSV or a chart is far smaller. */
    static final long MAX_BYTES = 200 * 1024;

    /** Raw measurement output, kept by git history and by {@code raw/}, never by the tree. */
    static final Set<String> RAW = Set.of("log", "out", "stat", "wrk", "perf", "data", "jfr", "hprof");

    /** Scripts, programs and patches: reusable ones live in {@code scripts/}, one-off ones go. */
    static final Set<String> PROGRAMS = Set.of("java", "c", "h", "cc", "cpp", "py", "sh", "bash", "lua", "pl",
            "rb", "js", "patch", "diff", "class", "jar");

    @Test
    void resultsHoldNoRawOutputNoProgramsAndNoLargeFiles() throws IOException {
        Path results = moduleDir().resolve("results");
        assertTrue(Files.isDirectory(results), "no results folder at " + results.toAbsolutePath());
        List<String> offenders;
        try (Stream<Path> files = Files.walk(results)) {
            offenders = files.filter(Files::isRegularFile)
                    .map(file -> problem(results, file))
                    .filter(problem -> !problem.isEmpty())
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertTrue(offenders.isEmpty(), offenders.size() + " file(s) under " + results
                + " are not summaries, CSVs or small charts (raw output goes to proactor-bench/raw/, reusable"
                + " scripts to proactor-bench/scripts/):\n  " + String.join("\n  ", offenders));
    }

    /** Why {@code file} may not be under {@code results}, or the empty string if it may. */
    static String problem(Path results, Path file) {
        String relative = results.relativize(file).toString();
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1);
        if (RAW.contains(extension) || name.contains("collapsed")) {
            return relative + " (raw output)";
        }
        if (PROGRAMS.contains(extension)) {
            return relative + " (script or program)";
        }
        long size = size(file);
        if (size > MAX_BYTES) {
            return relative + " (" + size / 1024 + " KiB, over " + MAX_BYTES / 1024 + " KiB)";
        }
        return "";
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the size of " + file, e);
        }
    }

    /** The module's directory: Maven's {@code basedir} when set (surefire sets it), else the working directory. */
    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    }
}
