package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, watching and awaiting the load generator, with a shell script standing in for it. */
class LoadgenRunTest {
    private static final ProcessRegistry REGISTRY = new ProcessRegistry();

    private static List<String> script(String body) {
        return List.of("sh", "-c", body);
    }

    @Test
    void seesTheWarmUpStartThenReadsTheResult(@TempDir Path dir) throws Exception {
        LoadgenRun lg = LoadgenRun.start(script("echo 'loadgen: 2 sessions connected in 0.01 s' >&2; sleep 0.2; "
                + "echo 'loadgen: every session echoed after 0.21 s; warming up 0 s, measuring 1 s' >&2; sleep 0.3; "
                + "echo '" + LoadResultTest.LINE + " offered_msgs_per_s=500'"), dir.resolve("lg.log"), REGISTRY);
        assertTrue(lg.awaitWarmup(20));
        LoadResult r = lg.await(20);
        assertEquals(126456, r.msgsPerS());
        assertEquals(500, r.offeredMsgsPerS());
        assertFalse(lg.isAlive());
    }

    @Test
    void aGeneratorThatEndsBeforeItsWarmUpIsNotWaitedFor(@TempDir Path dir) throws Exception {
        LoadgenRun lg = LoadgenRun.start(script("echo 'loadgen: error: connect failed' >&2; exit 1"),
                dir.resolve("lg.log"), REGISTRY);
        assertFalse(lg.awaitWarmup(20));
        RunFailure e = assertThrows(RunFailure.class, () -> lg.await(20));
        assertTrue(e.getMessage().contains("exited with code 1"), e.getMessage());
    }

    @Test
    void theOneCallRunStillWorks(@TempDir Path dir) throws Exception {
        LoadResult r = LoadgenRun.run(script("echo '" + LoadResultTest.LINE + "'"), dir.resolve("lg.log"), 20,
                REGISTRY);
        assertEquals(126456, r.msgsPerS());
        assertTrue(Double.isNaN(r.offeredMsgsPerS()));
        assertThrows(RunFailure.class, () -> LoadgenRun.run(script("echo nothing"), dir.resolve("lg2.log"), 20,
                REGISTRY));
    }
}
