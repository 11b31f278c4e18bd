package dev.proactor.nio2.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.Callers;
import dev.proactor.nio2.ProactorFiles;
import dev.proactor.testengine.ManualEngineProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our file channels with callers blocked on a slow source ({@link GatedFile}: reads wait on the thread-pool file
 * engine's workers until the test lets them through), which the JDK's channels cannot be made to show: an interrupt
 * or a close while a caller is blocked, and the callers kept waiting until their operation completed (so a buffer is
 * never written after the call returned); operations queued on a lane failing with
 * {@link AsynchronousCloseException} on close; lanes growing with concurrency up to {@code proactor.fileLanes}; and,
 * on virtual threads (the forked JDK 21+ run with a carrier pool of 1), readers blocked on the slow source leaving the
 * carrier free for another virtual thread. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BlockedFileCallersTest {

    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    private Demultiplexor open(int fileThreads) throws IOException {
        return Demultiplexor.open(ProactorConfig.builder().engine(ManualEngineProvider.NAME).threads(2)
                .fileThreads(fileThreads).strict(true).build()).start();
    }

    /** At most {@code n} lanes per channel ({@code proactor.fileLanes}). */
    private static FileSettings lanes(int n) {
        return new FileSettings(n);
    }

    private Path file(byte[] data) throws IOException {
        Path p = dir.resolve("slow");
        Files.write(p, data);
        return p;
    }

    private static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + what + " never happened");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Waits until {@code t} is parked (or has ended) and says which: WAITING (also for a timed park) or TERMINATED. */
    private static Thread.State parkedOrEnded(Thread t) {
        waitUntil(() -> t.getState() != Thread.State.RUNNABLE && t.getState() != Thread.State.NEW,
                "caller parked or ended");
        Thread.State s = t.getState();
        return s == Thread.State.TIMED_WAITING ? Thread.State.WAITING : s;
    }

    @Test
    void anInterruptWhileBlockedClosesTheChannelAndTheCallerWaitsForItsRead() throws Exception {
        byte[] data = new byte[4096];
        new Random(1).nextBytes(data);
        GatedFile gated = GatedFile.open(file(data));
        try (Demultiplexor demux = open(1)) {
            ProactorFileChannel ch = new ProactorFileChannel(demux, gated, FileOptions.of(StandardOpenOption.READ),
                    lanes(4));
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            AtomicReference<Boolean> interruptStatus = new AtomicReference<>();
            ByteBuffer dst = ByteBuffer.allocateDirect(4096);
            Thread caller = Callers.start(() -> {
                try {
                    ch.read(dst, 0);
                } catch (Throwable e) {
                    outcome.set(e);
                }
                interruptStatus.set(Thread.currentThread().isInterrupted());
            });
            waitUntil(() -> gated.entered() == 1, "the read reaching the slow source");
            caller.interrupt();
            waitUntil(() -> !ch.isOpen(), "the interrupt closing the channel");
            assertEquals(Thread.State.WAITING, parkedOrEnded(caller),
                    "the caller waits until its read completed, although the channel is closed");
            gated.release();
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(caller.isAlive(), "hang guard: the caller never returned");
            assertInstanceOf(ClosedByInterruptException.class, outcome.get());
            assertTrue(interruptStatus.get(), "the interrupt status stays set");
            assertFalse(gated.isOpen(), "closing the channel closed the JDK channel under it");
        }
    }

    @Test
    void aCloseWhileBlockedEndsTheCallerWithAsynchronousClose() throws Exception {
        GatedFile gated = GatedFile.open(file(new byte[4096]));
        try (Demultiplexor demux = open(1)) {
            ProactorFileChannel ch = new ProactorFileChannel(demux, gated, FileOptions.of(StandardOpenOption.READ),
                    lanes(4));
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            AtomicReference<Boolean> interruptStatus = new AtomicReference<>();
            Thread caller = Callers.start(() -> {
                try {
                    ch.read(ByteBuffer.allocate(100));
                } catch (Throwable e) {
                    outcome.set(e);
                }
                interruptStatus.set(Thread.currentThread().isInterrupted());
            });
            waitUntil(() -> gated.entered() == 1, "the read reaching the slow source");
            ch.close();
            assertEquals(Thread.State.WAITING, parkedOrEnded(caller), "the caller waits for its read");
            gated.release();
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(caller.isAlive(), "hang guard: the caller never returned");
            assertInstanceOf(AsynchronousCloseException.class, outcome.get());
            assertFalse(interruptStatus.get());
        }
    }

    @Test
    void closeFailsOperationsQueuedOnALaneWithAsynchronousClose() throws Exception {
        GatedFile gated = GatedFile.open(file(new byte[4096]));
        try (Demultiplexor demux = open(1)) {
            ProactorAsynchronousFileChannel ch = new ProactorAsynchronousFileChannel(demux, gated,
                    FileOptions.of(StandardOpenOption.READ), lanes(1));
            int n = 3;
            List<Future<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                reads.add(ch.read(ByteBuffer.allocate(10), i * 10L));
            }
            waitUntil(() -> gated.entered() == 1, "the first read reaching the slow source");
            ch.close();
            gated.release();
            for (Future<Integer> f : reads) {
                java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                        java.util.concurrent.ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                assertInstanceOf(AsynchronousCloseException.class, e.getCause(),
                        "the running read (its JDK channel closed under it) and the queued ones");
            }
            assertEquals(1, gated.entered(), "the queued reads never reached the file");
        }
    }

    @Test
    void lanesGrowWithConcurrencyUpToTheLimitAndTheRestQueue() throws Exception {
        byte[] data = new byte[6 * 4096];
        new Random(2).nextBytes(data);
        GatedFile gated = GatedFile.open(file(data));
        try (Demultiplexor demux = open(8)) {
            ProactorFileChannel ch = new ProactorFileChannel(demux, gated, FileOptions.of(StandardOpenOption.READ),
                    lanes(4));
            assertEquals(1, ch.lanes().laneCount(), "one lane at open");
            int callers = 6;
            ByteBuffer[] buffers = new ByteBuffer[callers];
            CountDownLatch done = new CountDownLatch(callers);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < callers; i++) {
                int me = i;
                buffers[i] = ByteBuffer.allocate(4096);
                Callers.start(() -> {
                    try {
                        assertEquals(4096, ch.read(buffers[me], me * 4096L));
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            waitUntil(() -> gated.entered() == 4, "four reads on four lanes at the slow source");
            assertEquals(4, ch.lanes().laneCount(), "lanes grew to proactor.fileLanes and no further");
            gated.release();
            assertTrue(done.await(60, TimeUnit.SECONDS), "hang guard: readers never finished");
            assertNull(failure.get());
            for (int i = 0; i < callers; i++) {
                assertArrayEquals(Arrays.copyOfRange(data, i * 4096, (i + 1) * 4096), buffers[i].array());
            }
            assertEquals(4, ch.lanes().laneCount());
            ch.close();
        }
    }

    @Test
    void readersBlockedOnASlowSourceLeaveTheCarrierToOtherVirtualThreads() throws Exception {
        assumeTrue(Callers.virtualThreadsAvailable(), () -> "needs virtual threads (JDK 21+); this JVM is "
                + Runtime.version() + " (the forked JDK 21+ run covers it)");
        int readers = 8;
        byte[] data = new byte[readers * 4096];
        new Random(3).nextBytes(data);
        GatedFile gated = GatedFile.open(file(data));
        try (Demultiplexor demux = open(readers)) {
            ProactorFileChannel ch = new ProactorFileChannel(demux, gated, FileOptions.of(StandardOpenOption.READ),
                    lanes(readers));
            AsynchronousFileChannel async = new ProactorAsynchronousFileChannel(demux, gated,
                    FileOptions.of(StandardOpenOption.READ), lanes(readers));
            ByteBuffer[] buffers = new ByteBuffer[readers];
            CountDownLatch done = new CountDownLatch(readers);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                int me = i;
                buffers[i] = ByteBuffer.allocateDirect(4096);
                threads.add(Callers.startVirtual(() -> {
                    try {
                        // Half block in FileChannel.read, half in Future.get of an asynchronous read.
                        int n = me % 2 == 0 ? ch.read(buffers[me], me * 4096L)
                                : async.read(buffers[me], me * 4096L).get(60, TimeUnit.SECONDS);
                        assertEquals(4096, n);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                }));
            }
            waitUntil(() -> gated.entered() == readers, "every read at the slow source");
            for (Thread t : threads) {
                assertEquals(Thread.State.WAITING, parkedOrEnded(t), "a reader is parked in its read");
            }
            // With -Djdk.virtualThreadScheduler.parallelism=1 (the forked run) there is one carrier: this virtual
            // thread runs only if the blocked readers left it free.
            CountDownLatch ran = new CountDownLatch(1);
            Callers.startVirtual(ran::countDown);
            assertTrue(ran.await(60, TimeUnit.SECONDS),
                    "hang guard: another virtual thread never ran while readers were blocked (pinned carrier?)");
            assertEquals(readers, done.getCount(), "no reader finished before the slow source let them");
            gated.release();
            assertTrue(done.await(60, TimeUnit.SECONDS), "hang guard: readers never finished");
            assertNull(failure.get(), () -> "a reader failed: " + failure.get());
            for (int i = 0; i < readers; i++) {
                byte[] got = new byte[4096];
                buffers[i].flip().get(got);
                assertArrayEquals(Arrays.copyOfRange(data, i * 4096, (i + 1) * 4096), got, "reader " + i);
            }
            async.close();
            ch.close();
        }
    }

    @Test
    void aHandlerThatThrowsReachesTheUncaughtHandlerAndTheChannelGoesOn() throws Exception {
        Path file = file(new byte[] {1, 2, 3});
        List<Throwable> uncaught = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.builder().engine(ManualEngineProvider.NAME)
                .strict(true).build()).start(2, r -> {
                    Thread t = new Thread(r, "pool");
                    t.setDaemon(true);
                    t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
                    return t;
                });
             AsynchronousFileChannel ch = ProactorFiles.openAsynchronous(demux, file)) {
            IllegalStateException boom = new IllegalStateException("handler failure");
            CountDownLatch thrown = new CountDownLatch(1);
            ch.read(ByteBuffer.allocate(3), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    thrown.countDown();
                    throw boom;
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    thrown.countDown();
                }
            });
            assertTrue(thrown.await(60, TimeUnit.SECONDS), "hang guard");
            waitUntil(() -> !uncaught.isEmpty(), "the handler's exception reaching the uncaught handler");
            assertEquals(List.of(boom), uncaught);
            ByteBuffer again = ByteBuffer.allocate(3);
            assertEquals(3, ch.read(again, 0).get(60, TimeUnit.SECONDS), "the channel still works");
            assertArrayEquals(new byte[] {1, 2, 3}, again.array());
        }
    }

    @Test
    void aFutureWaitedForInsideAHandlerCompletesOnAChannelOfOneLane() throws Exception {
        byte[] data = new byte[2 * 4096];
        new Random(4).nextBytes(data);
        Path file = file(data);
        try (Demultiplexor demux = open(2);
             ProactorAsynchronousFileChannel ch = (ProactorAsynchronousFileChannel) FileChannels.openAsynchronous(
                     demux, lanes(1), file, StandardOpenOption.READ)) {
            ByteBuffer nested = ByteBuffer.allocate(4096);
            AtomicReference<Object> nestedOutcome = new AtomicReference<>();
            CountDownLatch handled = new CountDownLatch(1);
            ch.read(ByteBuffer.allocate(4096), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object attachment) {
                    try {
                        // The only lane runs this handler: the read must not queue behind it.
                        nestedOutcome.set(ch.read(nested, 4096).get(20, TimeUnit.SECONDS));
                    } catch (Throwable e) {
                        nestedOutcome.set(e);
                    }
                    handled.countDown();
                }

                @Override
                public void failed(Throwable e, Object attachment) {
                    nestedOutcome.set(e);
                    handled.countDown();
                }
            });
            assertTrue(handled.await(60, TimeUnit.SECONDS), "hang guard: the handler never ended");
            assertEquals(4096, nestedOutcome.get(), () -> "the nested read: " + nestedOutcome.get());
            assertArrayEquals(Arrays.copyOfRange(data, 4096, 2 * 4096), nested.array());
            assertEquals(2, ch.lanes().laneCount(), "one lane beyond proactor.fileLanes, for the nested read");
        }
    }

    @Test
    void aReadWaitingOnAnEmptyFifoLeavesTheWorkersToOtherFiles() throws Exception {
        Path fifo = dev.proactor.conformance.Fifo.make(dir, "fifo");
        byte[] data = new byte[4096];
        new Random(5).nextBytes(data);
        Path file = file(data);
        try (Demultiplexor demux = open(1);
             java.nio.channels.FileChannel pipe = FileChannels.open(demux, lanes(4), fifo, StandardOpenOption.READ,
                     StandardOpenOption.WRITE);
             java.nio.channels.FileChannel disk = FileChannels.open(demux, lanes(4), file, StandardOpenOption.READ)) {
            ByteBuffer fromPipe = ByteBuffer.allocate(3);
            AtomicReference<Object> pipeOutcome = new AtomicReference<>();
            CountDownLatch pipeDone = new CountDownLatch(1);
            Thread pipeReader = Callers.start(() -> {
                try {
                    pipeOutcome.set(pipe.read(fromPipe));
                } catch (Throwable e) {
                    pipeOutcome.set(e);
                }
                pipeDone.countDown();
            });
            assertEquals(Thread.State.WAITING, parkedOrEnded(pipeReader), "the FIFO read is queued first");
            // One worker, and a read that waits for a writer: a read of another file must not queue behind it.
            ByteBuffer fromDisk = ByteBuffer.allocate(4096);
            AtomicReference<Object> diskOutcome = new AtomicReference<>();
            CountDownLatch diskDone = new CountDownLatch(1);
            Callers.start(() -> {
                try {
                    diskOutcome.set(disk.read(fromDisk, 0));
                } catch (Throwable e) {
                    diskOutcome.set(e);
                }
                diskDone.countDown();
            });
            try {
                assertTrue(diskDone.await(30, TimeUnit.SECONDS),
                        "hang guard: the disk read waited behind the FIFO read for the only worker");
                assertEquals(4096, diskOutcome.get(), () -> "the disk read: " + diskOutcome.get());
                assertArrayEquals(data, fromDisk.array());
                assertEquals(1, pipeDone.getCount(), "the FIFO read still waits for a writer");
            } finally {
                try (java.nio.channels.FileChannel writer = java.nio.channels.FileChannel.open(fifo,
                        StandardOpenOption.WRITE)) {
                    writer.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
                }
            }
            assertTrue(pipeDone.await(60, TimeUnit.SECONDS), "hang guard: the FIFO read never ended");
            assertEquals(3, pipeOutcome.get(), () -> "the FIFO read: " + pipeOutcome.get());
            assertArrayEquals(new byte[] {1, 2, 3}, fromPipe.array());
        }
    }
}
