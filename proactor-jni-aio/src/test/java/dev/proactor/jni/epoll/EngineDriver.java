package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proactor.spi.IoRequest;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Drives an {@link EpollEngine} directly from the test thread, without the core's processor: start a request,
 * then poll the wait strategy until it completes, with some work (draining a peer) between polls. For tests
 * that look at the engine's own state, such as the mode a transmission chose.
 */
final class EngineDriver implements AutoCloseable {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    final EpollEngine engine;

    EngineDriver() throws IOException {
        engine = new EpollEngine(EpollWaitStrategy.NAME);
    }

    /** Starts {@code request} and waits for it to complete; returns what {@code start} said. */
    StartResult run(IoRequest request, Runnable betweenPolls) throws IOException {
        StartResult result = engine.start(request);
        if (result == StartResult.PENDING) {
            await(request, betweenPolls);
        }
        return result;
    }

    /** Polls until {@code request}, which is pending, comes out of the wait strategy. */
    void await(IoRequest request, Runnable betweenPolls) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
                IoRequest done = wait.nextCompleted();
                assertSame(request, done, "the only pending request completes");
                return;
            }
            betweenPolls.run();
        }
        fail("the request did not complete within the hang guard: " + request.kind());
    }

    /** How many descriptors of this process name {@code file} (via /proc/self/fd), or -1 without /proc. */
    static long descriptorsOf(Path file) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        Path target = file.toRealPath();
        try (Stream<Path> entries = Files.list(fds)) {
            return entries.filter(entry -> {
                try {
                    return Files.readSymbolicLink(entry).equals(target);
                } catch (IOException e) {
                    return false; // closed since the listing (e.g. the listing's own descriptor)
                }
            }).count();
        }
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
