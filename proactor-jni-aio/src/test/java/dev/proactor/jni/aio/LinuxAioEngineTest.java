package dev.proactor.jni.aio;

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
import java.util.concurrent.TimeUnit;
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
}
