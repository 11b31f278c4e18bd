package dev.proactor.filepool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.OperationCancelledException;
import dev.proactor.conformance.DelegatingFileChannel;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file engine on its own, driven like a processor drives it, with a file channel whose reads wait for the
 * test: which requests a cancel or close catches is then certain rather than a race.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FilePoolEngineTest {

    @TempDir
    Path dir;

    /** A file channel whose positional reads wait until {@link #release} opens. */
    private static final class GatedChannel extends DelegatingFileChannel {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        GatedChannel(FileChannel delegate) {
            super(delegate);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            entered.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS), "hang guard: the test never released the read");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return super.read(dst, position);
        }
    }

    private Path file(int size) throws IOException {
        Path p = dir.resolve("f");
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) i;
        }
        Files.write(p, b);
        return p;
    }

    private static IoRequest read(EngineChannel ch, int size, long position) {
        return new IoRequest("owner").prepare(OpKind.READ_FILE, ch).buffer(ByteBuffer.allocate(size))
                .position(position);
    }

    /** Waits for the next completion (hang guard via the test timeout). */
    private static IoRequest next(FilePoolEngine engine) throws IOException {
        for (;;) {
            IoRequest r = engine.waitStrategy().nextCompleted();
            if (r != null) {
                return r;
            }
            engine.waitStrategy().waitFor(TimeUnit.SECONDS.toNanos(1));
        }
    }

    @Test
    void aRunningRequestCompletesWithItsResultAndAWaitingOneIsCancelled() throws Exception {
        FilePoolEngine engine = new FilePoolEngine("test", 1);
        try {
            GatedChannel gated = new GatedChannel(FileChannel.open(file(100)));
            engine.openFile(file(100), Set.of()).close(); // starts the worker
            FilePoolChannel ch = new FilePoolChannel(gated, true, "gated");
            IoRequest running = read(ch, 10, 5);
            IoRequest waiting = read(ch, 10, 50);
            assertEquals(StartResult.PENDING, engine.start(running));
            assertTrue(gated.entered.await(30, TimeUnit.SECONDS), "hang guard: the worker never started");
            assertEquals(StartResult.PENDING, engine.start(waiting)); // one worker, busy: it waits
            OperationCancelledException reason = new OperationCancelledException();
            assertFalse(engine.cancel(running, reason), "a running request cannot be cancelled");
            assertTrue(engine.cancel(waiting, reason));
            assertSame(reason, waiting.error());
            assertFalse(engine.cancel(waiting, reason), "cancelled once only");
            gated.release.countDown();
            IoRequest done = next(engine);
            assertSame(running, done);
            assertNull(done.error());
            assertEquals(10, done.bytes());
            assertEquals(5, done.firstBuffer().get(0));
            engine.quiesce();
            assertNull(engine.waitStrategy().nextCompleted(), "the cancelled request never comes out");
            ch.close();
        } finally {
            engine.close();
        }
    }

    @Test
    void closingTheFileUnderARunningReadEndsItOnceAndQuiesceWaitsForIt() throws Exception {
        FilePoolEngine engine = new FilePoolEngine("test", 1);
        try {
            engine.openFile(file(100), Set.of()).close();
            GatedChannel gated = new GatedChannel(FileChannel.open(file(100)));
            FilePoolChannel ch = new FilePoolChannel(gated, true, "gated");
            IoRequest running = read(ch, 10, 0);
            IoRequest waiting = read(ch, 10, 10);
            engine.start(running);
            assertTrue(gated.entered.await(30, TimeUnit.SECONDS), "hang guard: the worker never started");
            engine.start(waiting);
            ch.close();
            assertTrue(ch.isClosed());
            assertTrue(engine.cancel(waiting, new AsynchronousCloseException()));
            assertEquals(StartResult.COMPLETED, engine.start(read(ch, 1, 0)), "a start on a closed file");
            gated.release.countDown();
            engine.quiesce();
            assertEquals(1, engine.waitStrategy().waitFor(0), "quiesce returned after the running read ended");
            IoRequest done = engine.waitStrategy().nextCompleted();
            assertSame(running, done);
            assertInstanceOf(ClosedChannelException.class, done.error());
        } finally {
            engine.close();
        }
    }

    @Test
    void writesEveryByteAtThePositionAndReadsComeBack() throws Exception {
        FilePoolEngine engine = new FilePoolEngine("test", 2);
        try {
            EngineChannel ch = engine.openFile(dir.resolve("w"), Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE));
            IoRequest w = new IoRequest("w").prepare(OpKind.WRITE_FILE, ch)
                    .buffer(ByteBuffer.wrap(new byte[] {7, 8, 9})).position(4);
            engine.start(w);
            assertSame(w, next(engine));
            assertEquals(3, w.bytes());
            assertEquals(7, ch.size());
            IoRequest r = read(ch, 16, 4);
            engine.start(r);
            assertSame(r, next(engine));
            assertEquals(3, r.bytes());
            IoRequest eof = read(ch, 16, 7);
            engine.start(eof);
            assertSame(eof, next(engine));
            assertEquals(-1, eof.bytes());
            assertNull(eof.error());
            ch.close();
        } finally {
            engine.close();
        }
    }

    @Test
    void socketOperationsAndUnknownKindsAreRefused() throws Exception {
        FilePoolEngine engine = new FilePoolEngine("test", 1);
        try {
            assertTrue(engine.supports(OpKind.READ_FILE) && engine.supports(OpKind.WRITE_FILE));
            assertFalse(engine.supports(OpKind.READ) || engine.supports(OpKind.RECEIVE)
                    || engine.supports(OpKind.TRANSMIT_FILE));
            assertFalse(engine.startInterruptsLeader());
            assertThrows(UnsupportedOperationException.class, () -> engine.openSocket(null));
            assertThrows(UnsupportedOperationException.class, () -> engine.openServer(null, 0));
            assertThrows(UnsupportedOperationException.class, () -> engine.openDatagram(null));
            assertThrows(IllegalArgumentException.class, () -> engine.register(FileChannel.open(file(1))));
            assertThrows(IllegalArgumentException.class, () -> new FilePoolEngine("x", 0));
            EngineChannel ch = engine.openFile(file(1), Set.of());
            assertThrows(UnsupportedOperationException.class, ch::shutdownOutput);
            IoRequest wrong = new IoRequest("x").prepare(OpKind.READ, ch).buffer(ByteBuffer.allocate(1));
            assertEquals(StartResult.COMPLETED, engine.start(wrong));
            assertInstanceOf(IllegalArgumentException.class, wrong.error());
            ch.close();
        } finally {
            engine.close();
        }
    }

    @Test
    void theSteadyStateAllocatesNothingPerOperation() throws Exception {
        AllocationCounter counter = new AllocationCounter();
        FilePoolEngine engine = new FilePoolEngine("alloc-test", 1);
        try {
            EngineChannel ch = engine.openFile(file(4096), Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
            Thread worker = null;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("alloc-test-worker-1")) {
                    worker = t;
                }
            }
            assertTrue(worker != null);
            long[] ids = {Thread.currentThread().getId(), worker.getId()};
            IoRequest r = new IoRequest("owner");
            ByteBuffer buf = ByteBuffer.allocateDirect(512);
            int ops = 20_000;
            long perOp = Long.MAX_VALUE;
            for (int round = 0; round < 5 && perOp > 0; round++) { // early rounds warm the JIT up
                long before = counter.allocatedBytes(ids);
                for (int i = 0; i < ops; i++) {
                    buf.clear();
                    r.prepare(i % 2 == 0 ? OpKind.READ_FILE : OpKind.WRITE_FILE, ch).buffer(buf).position(i % 8);
                    engine.start(r);
                    while (engine.waitStrategy().nextCompleted() == null) {
                        engine.waitStrategy().waitFor(-1);
                    }
                    assertNull(r.error());
                }
                perOp = (counter.allocatedBytes(ids) - before) / ops;
            }
            assertEquals(0, perOp, "whole bytes allocated per file operation in the steady state");
            ch.close();
        } finally {
            engine.close();
        }
    }

    /**
     * Bytes allocated by threads, from the JDK's {@code com.sun.management.ThreadMXBean}, reached reflectively
     * because this module does not read the management modules.
     */
    private static final class AllocationCounter {
        private final Object bean;
        private final java.lang.reflect.Method allocated;

        AllocationCounter() throws ReflectiveOperationException {
            bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes",
                    long[].class);
        }

        long allocatedBytes(long[] threadIds) throws ReflectiveOperationException {
            long sum = 0;
            for (long v : (long[]) allocated.invoke(bean, (Object) threadIds)) {
                sum += v;
            }
            return sum;
        }
    }

    @Test
    void anInterruptEndsTheLeadersWaitAndCloseStopsTheWorkers() throws Exception {
        FilePoolEngine engine = new FilePoolEngine("stop-test", 2);
        engine.openFile(file(1), Set.of()).close();
        CompletionQueue queue = (CompletionQueue) engine.waitStrategy();
        Thread leader = new Thread(() -> queue.waitFor(-1));
        leader.start();
        engine.waitStrategy().interruptStrategy().interrupt();
        leader.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(leader.isAlive(), "hang guard: the interrupt did not end the wait");
        assertEquals(0, engine.waitStrategy().waitFor(0));
        engine.close();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("stop-test-worker"), "worker still alive: " + t);
        }
    }
}
