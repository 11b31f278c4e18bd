package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another process holding an exclusive lock on a whole file (file locks are per process, so only another process
 * can make a lock attempt of the test wait). {@link #main} locks the file named by its argument, prints
 * {@value #LOCKED}, and holds the lock until its standard input ends.
 */
public final class LockHolder {

    static final String LOCKED = "locked";

    private final Process process;

    private LockHolder(Process process) {
        this.process = process;
    }

    /** Starts a process that holds the lock on {@code file}, and waits until it does. */
    static LockHolder lock(Path file) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                LockHolder.class.getName(), file.toString())).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!LOCKED.equals(line)) {
            p.destroyForcibly();
            throw new IOException("the lock-holding process said " + line);
        }
        return new LockHolder(p);
    }

    /** Releases the lock: ends the process (its standard input closes) and waits for it. Idempotent. */
    void release() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(Outcome.GUARD_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("hang guard: the lock-holding process never ended");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while the lock-holding process ended", e);
        }
        assertEquals(0, process.exitValue());
    }

    /** Holds an exclusive lock on {@code args[0]} until standard input ends. */
    public static void main(String[] args) throws IOException {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = ch.lock();
            System.out.println(LOCKED + (lock.isValid() ? "" : " (invalid)"));
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our input
            }
        }
    }
}
