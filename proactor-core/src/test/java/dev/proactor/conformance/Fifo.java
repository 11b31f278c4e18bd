package dev.proactor.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Named pipes for the tests of files without a position: made with the {@code mkfifo} command (the JDK cannot make
 * one). A test that needs one is skipped, with the reason, where {@code mkfifo} is missing or fails.
 */
public final class Fifo {

    private Fifo() {
    }

    /** A new FIFO named {@code name} in {@code dir}; skips the calling test if it cannot be made. */
    public static Path make(Path dir, String name) throws IOException, InterruptedException {
        Path fifo = dir.resolve(name);
        String failure = tryMake(fifo);
        assumeTrue(failure == null, () -> "no FIFO here: " + failure);
        return fifo;
    }

    /** Whether FIFOs can be made here (tried once in a temporary directory). */
    public static boolean isAvailable() {
        try {
            Path dir = Files.createTempDirectory("proactor-fifo");
            Path fifo = dir.resolve("probe");
            try {
                return tryMake(fifo) == null;
            } finally {
                Files.deleteIfExists(fifo);
                Files.delete(dir);
            }
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code mkfifo}; null if the FIFO exists now, else why not. */
    private static String tryMake(Path fifo) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "mkfifo cannot be run: " + e.getMessage();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "hang guard: mkfifo did not end";
        }
        if (p.exitValue() != 0) {
            try {
                return "mkfifo failed: " + new String(p.getInputStream().readAllBytes()).trim();
            } catch (IOException e) {
                return "mkfifo failed with " + p.exitValue();
            }
        }
        return Files.exists(fifo) ? null : "mkfifo made no " + fifo;
    }
}
