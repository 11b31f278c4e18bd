package dev.proactor.jni.aio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.LinuxAio;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Linux AIO engine driven directly, without the core's processor: what happens when every iocb is in use,
 * cancel and close with requests in the kernel, and the count of completions (exactly one per request). Skipped,
 * with the reason, where Linux AIO is unavailable.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LinuxAioEngineTest {

    @TempDir
    Path dir;

    @BeforeEach
    void needsLinuxAio() {
        assumeTrue(LinuxAio.isAvailable(), () -> "linux-aio unavailable: " + LinuxAio.unavailabilityCause());
    }

    private Path file(int size) throws IOException {
        Path f = dir.resolve("data");
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) i;
        }
        Files.write(f, b);
        return f;
    }

    private static IoRequest read(EngineChannel ch, int length, long position) {
        return new IoRequest("test").prepare(OpKind.READ_FILE, ch).buffer(ByteBuffer.allocateDirect(length))
                .position(position);
    }

    /** Polls the wait strategy until {@code expected} requests came out; counts each request's completions. */
    private static Map<IoRequest, Integer> collect(LinuxAioEngine engine, int expected) throws IOException {
        Map<IoRequest, Integer> seen = new IdentityHashMap<>();
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // hang guard only
        int total = 0;
        while (total < expected) {
            if (System.nanoTime() - deadline > 0) {
                fail("only " + total + " of " + expected + " requests completed");
            }
            wait.prepareToWait();
            wait.waitFor(TimeUnit.MILLISECONDS.toNanos(10));
            IoRequest r;
            while ((r = wait.nextCompleted()) != null) {
                seen.merge(r, 1, Integer::sum);
                total++;
            }
        }
        return seen;
    }

    @Test
    void everyIocbInUseDefersTheNextRequestUntilOneIsReaped() throws Exception {
        Path f = file(4096);
        try (LinuxAioEngine engine = new LinuxAioEngine("epoll")) {
            EngineChannel ch = engine.openFile(f, Set.of(StandardOpenOption.READ));
            List<IoRequest> started = new ArrayList<>();
            for (int i = 0; i < AioContext.DEPTH; i++) {
                IoRequest r = read(ch, 16, i % 256);
                assertEquals(StartResult.PENDING, engine.start(r));
                started.add(r);
            }
            IoRequest extra = read(ch, 16, 0);
            assertEquals(StartResult.DEFERRED, engine.start(extra), "no iocb is free until the leader reaps");

            Map<IoRequest, Integer> seen = collect(engine, AioContext.DEPTH);
            for (IoRequest r : started) {
                assertEquals(1, seen.get(r), "completions of one request");
                assertNull(r.error());
                assertEquals(16, r.bytes());
            }
            assertEquals(StartResult.PENDING, engine.start(extra), "reaped iocbs are free again");
            assertEquals(1, collect(engine, 1).get(extra));
            ch.close();
        }
    }

    @Test
    void anErrorThrownWhileAnIocbIsFilledLeavesItFreeForTheNextRequest() throws Exception {
        Path f = file(4096);
        try (LinuxAioEngine engine = new LinuxAioEngine("epoll")) {
            EngineChannel ch = engine.openFile(f, Set.of(StandardOpenOption.READ));
            // More failures than iocbs: one iocb kept by each failure would leave none for the read after them.
            StackOverflowError injected = new StackOverflowError("injected");
            engine.files().beforePrepare = () -> {
                throw injected;
            };
            for (int i = 0; i <= AioContext.DEPTH; i++) {
                IoRequest failed = read(ch, 16, 0);
                Throwable outcome;
                try {
                    assertEquals(StartResult.COMPLETED, engine.start(failed), "a request failed at start completes");
                    outcome = failed.error();
                } catch (StackOverflowError thrown) {
                    outcome = thrown;
                }
                assertSame(injected, outcome, "the error is the request's outcome (recorded or thrown)");
            }
            engine.files().beforePrepare = null;
            IoRequest next = read(ch, 16, 0);
            assertEquals(StartResult.PENDING, engine.start(next), "the failed requests' iocbs are free");
            assertEquals(1, collect(engine, 1).get(next));
            assertNull(next.error());
            assertEquals(16, next.bytes());
            ch.close();
        }
    }

    @Test
    void cancelOrCloseWithRequestsInTheKernelCompletesEachExactlyOnce() throws Exception {
        Path f = file(1 << 20);
        try (LinuxAioEngine engine = new LinuxAioEngine("epoll")) {
            EngineChannel ch = engine.openFile(f, Set.of(StandardOpenOption.READ));
            List<IoRequest> started = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                IoRequest r = read(ch, 65536, (long) i * 65536);
                assertEquals(StartResult.PENDING, engine.start(r));
                started.add(r);
            }
            // The kernel cannot cancel file reads: cancel says so, and each still completes with its own result.
            int cancelled = 0;
            for (IoRequest r : started) {
                if (engine.cancel(r, new IllegalStateException("cancelled"))) {
                    cancelled++;
                }
            }
            ch.close(); // the kernel holds the file for the requests it has
            Map<IoRequest, Integer> seen = collect(engine, started.size() - cancelled);
            for (IoRequest r : started) {
                Integer n = seen.get(r);
                if (n == null) {
                    assertInstanceOf(IllegalStateException.class, r.error(), "only a cancelled one is not reaped");
                } else {
                    assertEquals(1, n);
                    assertTrue(r.error() == null ? r.bytes() == 65536 : r.error() instanceof IllegalStateException,
                            "own result or the cancel reason: " + r.bytes() + " " + r.error());
                }
            }
            IoRequest late = read(ch, 16, 0);
            assertEquals(StartResult.COMPLETED, engine.start(late));
            assertInstanceOf(ClosedChannelException.class, late.error());
            assertFalse(engine.cancel(late, new IllegalStateException()), "a completed request is not pending");
        }
    }

    @Test
    void quiesceReapsWhatTheKernelHoldsForTheLastWait() throws Exception {
        Path f = file(1 << 20);
        try (LinuxAioEngine engine = new LinuxAioEngine("busy-poll")) {
            EngineChannel ch = engine.openFile(f, Set.of(StandardOpenOption.READ));
            List<IoRequest> started = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                IoRequest r = read(ch, 4096, i * 4096L);
                assertEquals(StartResult.PENDING, engine.start(r));
                started.add(r);
            }
            engine.quiesce();
            WaitStrategy wait = engine.waitStrategy();
            wait.prepareToWait();
            assertEquals(started.size(), wait.waitFor(0), "one zero-timeout wait after quiesce finds them all");
            int n = 0;
            while (wait.nextCompleted() != null) {
                n++;
            }
            assertEquals(started.size(), n);
            ch.close();
        }
    }

    @Test
    void theRestOfAShortWriteIsSubmittedWhileAnotherSubmissionOfItsFileIsInProgress() throws Exception {
        Path f = file(4096);
        byte[] data = new byte[AioSlot.MAX_BOUNCE + 4096];
        new java.util.Random(7).nextBytes(data);
        try (LinuxAioEngine engine = new LinuxAioEngine("epoll")) {
            EngineChannel ch = engine.openFile(f, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
            // A heap write larger than a slot's bounce block: its first iocb writes MAX_BOUNCE bytes, and the leader
            // submits the rest when it reaps that one (a short write, as the kernel may also give).
            IoRequest write = new IoRequest("write").prepare(OpKind.WRITE_FILE, ch).buffer(ByteBuffer.wrap(data))
                    .position(0);
            assertEquals(StartResult.PENDING, engine.start(write));
            // Another request of the same file held inside its submission (where a buffered read of a cold disk
            // would run).
            IoRequest held = read(ch, 16, 0);
            CountDownLatch inSubmit = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            engine.context().beforeSubmit = r -> {
                if (r == held) {
                    inSubmit.countDown();
                    try {
                        assertTrue(release.await(60, TimeUnit.SECONDS), "hang guard: the test never released it");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            Thread submitter = new Thread(() -> assertEquals(StartResult.PENDING, engine.start(held)), "submitter");
            submitter.start();
            Map<IoRequest, Integer> seen;
            try {
                assertTrue(inSubmit.await(60, TimeUnit.SECONDS), "hang guard: the read never reached io_submit");
                // The leader's reaping on a thread of its own, so that a leader blocked by the held submission fails
                // the test instead of hanging it.
                FutureTask<Map<IoRequest, Integer>> reaping = new FutureTask<>(() -> collect(engine, 1));
                new Thread(reaping, "leader").start();
                try {
                    seen = reaping.get(30, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("hang guard: the leader could not submit the rest of the write while"
                            + " another submission of the file was in progress", e);
                }
            } finally {
                release.countDown();
            }
            assertEquals(1, seen.get(write), "the write completed while the read was still held in its submission");
            assertNull(write.error());
            assertEquals(data.length, write.bytes());
            submitter.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(submitter.isAlive(), "hang guard: the held submission never returned");
            engine.context().beforeSubmit = null;
            assertEquals(1, collect(engine, 1).get(held));
            assertNull(held.error());
            ch.close();
        }
        assertArrayEquals(data, Files.readAllBytes(f));
    }
}
