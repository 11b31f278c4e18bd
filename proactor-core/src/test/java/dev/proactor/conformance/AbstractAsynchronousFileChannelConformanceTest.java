package dev.proactor.conformance;

import static dev.proactor.conformance.AbstractFileChannelConformanceTest.random;
import static dev.proactor.conformance.Nio2Fixture.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contracts of {@link AsynchronousFileChannel} from its Javadoc, written once and run against the JDK's channel
 * (the reference) and ours ({@link dev.proactor.nio2.ProactorFiles#openAsynchronous}) on every file engine: reads
 * and writes with futures and handlers (byte-exact, heap buffers larger than one bounce chunk included), many
 * operations in flight at once, end of file, errors thrown by the call, a closed channel failing operations
 * through their outcome (handlers invoked off the calling thread), size, truncate, force, locks (one held by
 * another process included: waiting, failing with {@link AsynchronousCloseException} on close, a future cancelled
 * with interruption closing the channel). A concrete subclass names its
 * engine ({@link EngineUnderTest}). Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractAsynchronousFileChannelConformanceTest {

    /** Row {@code ASYNC_FILE_CHANNEL} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2FileTarget> targets(TestInfo test) {
        return ConfigurationTable.fileChannels(Suite.ASYNC_FILE_CHANNEL, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final StandardOpenOption[] RW = {StandardOpenOption.READ, StandardOpenOption.WRITE,
        StandardOpenOption.CREATE};

    @TempDir
    Path dir;

    private static byte[] bytes(ByteBuffer flipped) {
        byte[] b = new byte[flipped.remaining()];
        flipped.get(b);
        return b;
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void futuresAndHandlersMoveEveryByte(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("data");
        byte[] data = random(1_000_000, 11);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(file, RW);
                // A heap write larger than one bounce chunk, with a future; a direct one with a handler.
                ByteBuffer heap = ByteBuffer.wrap(data, 0, 600_000).slice();
                assertEquals(600_000, get(ch.write(heap, 0)));
                assertFalse(heap.hasRemaining());
                Outcome<Integer> w = new Outcome<>();
                ch.write(ByteBuffer.allocateDirect(400_000).put(data, 600_000, 400_000).flip(), 600_000, "w", w);
                assertEquals(400_000, w.value());
                assertEquals("w", w.attachment());
                assertEquals(data.length, ch.size());

                ByteBuffer all = ByteBuffer.allocate(data.length);
                assertEquals(data.length, get(ch.read(all, 0)), "a heap read fills the buffer up to the end");
                assertArrayEquals(data, all.array());
                ByteBuffer direct = ByteBuffer.allocateDirect(300_000);
                Outcome<Integer> r = new Outcome<>();
                ch.read(direct, 700_000, null, r);
                assertEquals(300_000, r.value());
                assertArrayEquals(Arrays.copyOfRange(data, 700_000, 1_000_000), bytes(direct.flip()));
            });
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void manyOperationsInFlightCompleteOnceWithTheirOwnBytes(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("inflight");
        int block = 4096;
        int n = 300;
        byte[] data = random(1024 * block, 12);
        Files.write(file, data);
        try (Nio2Files f = target.open()) {
            AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ);
            int[] positions = new int[n];
            ByteBuffer[] buffers = new ByteBuffer[n];
            AtomicInteger[] calls = new AtomicInteger[n];
            AtomicReferenceArray<Object> results = new AtomicReferenceArray<>(n);
            CountDownLatch done = new CountDownLatch(n);
            CompletionHandler<Integer, Integer> h = new CompletionHandler<>() {
                @Override
                public void completed(Integer result, Integer i) {
                    results.set(i, result);
                    calls[i].incrementAndGet();
                    done.countDown();
                }

                @Override
                public void failed(Throwable e, Integer i) {
                    results.set(i, e);
                    calls[i].incrementAndGet();
                    done.countDown();
                }
            };
            Random r = new Random(13);
            for (int i = 0; i < n; i++) {
                positions[i] = r.nextInt(1024) * block;
                buffers[i] = i % 3 == 0 ? ByteBuffer.allocate(block) : ByteBuffer.allocateDirect(block);
                calls[i] = new AtomicInteger();
            }
            for (int i = 0; i < n; i++) {
                ch.read(buffers[i], positions[i], i, h);
            }
            assertTrue(done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: reads never completed");
            for (int i = 0; i < n; i++) {
                assertEquals(1, calls[i].get(), "completions of read " + i);
                assertEquals(block, results.get(i), "read " + i);
                assertArrayEquals(Arrays.copyOfRange(data, positions[i], positions[i] + block),
                        bytes(buffers[i].flip()), "bytes of read " + i);
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void endOfFileAndEmptyBuffers(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("thousand");
        byte[] data = random(1000, 14);
        Files.write(file, data);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                assertEquals(-1, get(ch.read(ByteBuffer.allocate(10), 1000)));
                Outcome<Integer> past = new Outcome<>();
                ch.read(ByteBuffer.allocateDirect(10), 5000, null, past);
                assertEquals(-1, past.value());
                ByteBuffer across = ByteBuffer.allocate(100);
                assertEquals(10, get(ch.read(across, 990)));
                assertArrayEquals(Arrays.copyOfRange(data, 990, 1000), bytes(across.flip()));
                assertEquals(0, get(ch.read(ByteBuffer.allocate(0), 0)));
                Outcome<Integer> empty = new Outcome<>();
                ch.write(ByteBuffer.allocate(0), 5000, null, empty);
                assertEquals(0, empty.value());
                assertNotSame(Thread.currentThread(), empty.thread(), "a handler is invoked off the caller");
                assertEquals(1000, ch.size());
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void argumentAndAccessErrorsAreThrownByTheCall(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("errors");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ro = f.openAsynchronous(file);
                AsynchronousFileChannel wo = f.openAsynchronous(file, StandardOpenOption.WRITE);
                Outcome<Integer> never = new Outcome<>();
                assertThrows(IllegalArgumentException.class, () -> ro.read(ByteBuffer.allocate(1), -1));
                assertThrows(IllegalArgumentException.class, () -> wo.write(ByteBuffer.allocate(1), -1, null, never));
                assertThrows(IllegalArgumentException.class,
                        () -> ro.read(ByteBuffer.allocate(1).asReadOnlyBuffer(), 0));
                assertThrows(NullPointerException.class, () -> ro.read(ByteBuffer.allocate(1), 0, null, null));
                assertThrows(NullPointerException.class, () -> ro.read(null, 0));
                assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1), 0));
                assertThrows(NonWritableChannelException.class, () -> ro.truncate(0));
                assertThrows(NonWritableChannelException.class, () -> ro.lock());
                assertThrows(NonWritableChannelException.class, () -> ro.tryLock());
                assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1), 0, null, never));
                assertThrows(NonReadableChannelException.class, () -> wo.lock(0, 1, true));
                assertThrows(IllegalArgumentException.class, () -> wo.truncate(-1));
                assertThrows(IllegalArgumentException.class, () -> wo.tryLock(-1, 1, false));
                assertThrows(UnsupportedOperationException.class,
                        () -> f.openAsynchronous(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
                assertEquals(3, get(ro.read(ByteBuffer.allocate(5), 0)), "the channels still work");
                assertEquals(1, get(wo.write(ByteBuffer.wrap(new byte[] {9}), 0)));
                assertFalse(never.endsWithin(0), "no operation that threw reached its handler");
            });
        }
        assertArrayEquals(new byte[] {9, 2, 3}, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aClosedChannelFailsOperationsThroughTheirOutcome(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("closed");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                ch.close();
                assertFalse(ch.isOpen());
                ch.close(); // idempotent
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> get(ch.read(ByteBuffer.allocate(1), 0)));
                assertInstanceOf(ClosedChannelException.class, e.getCause());
                Outcome<Integer> w = new Outcome<>();
                ch.write(ByteBuffer.allocateDirect(1), 0, "att", w);
                assertInstanceOf(ClosedChannelException.class, w.failure());
                assertEquals("att", w.attachment());
                assertNotSame(Thread.currentThread(), w.thread(), "the handler is invoked off the caller");
                Outcome<FileLock> l = new Outcome<>();
                ch.lock(null, l);
                assertInstanceOf(ClosedChannelException.class, l.failure());
                assertThrows(ClosedChannelException.class, ch::size);
                assertThrows(ClosedChannelException.class, () -> ch.truncate(0));
                assertThrows(ClosedChannelException.class, () -> ch.force(false));
                assertThrows(ClosedChannelException.class, () -> ch.tryLock());
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void sizeTruncateAndForce(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("size");
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(file, RW);
                assertEquals(0, ch.size());
                assertEquals(100, get(ch.write(ByteBuffer.wrap(random(100, 15)), 0)));
                assertEquals(100, ch.size());
                assertSame(ch, ch.truncate(40));
                assertEquals(40, ch.size());
                ch.truncate(70);
                assertEquals(40, ch.size(), "a larger size changes nothing");
                ch.force(true);
                ch.force(false);
            });
        }
        assertArrayEquals(Arrays.copyOf(random(100, 15), 40), Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void locksBelongToTheChannelAndAreExclusiveInTheJvm(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("locks");
        Files.write(file, new byte[100]);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileLock lock = get(ch.lock(0, 10, false));
                assertSame(ch, lock.acquiredBy());
                assertNull(lock.channel(), "a lock of an asynchronous channel has no FileChannel");
                assertTrue(lock.isValid());
                assertThrows(OverlappingFileLockException.class, () -> ch.lock(5, 10, true));
                assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 1, false));
                Outcome<FileLock> shared = new Outcome<>();
                ch.lock(20, 10, true, "s", shared);
                FileLock s = shared.value();
                assertTrue(s.isShared());
                assertSame(ch, s.acquiredBy());
                lock.release();
                assertFalse(lock.isValid());
                FileLock again = ch.tryLock(0, 10, false);
                assertTrue(again.isValid());
                ch.close();
                assertFalse(again.isValid(), "closing the channel releases its locks");
                assertFalse(s.isValid());
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aLockHeldByAnotherProcessIsWaitedForAndCloseEndsTheWait(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("contended");
        Files.write(file, new byte[100]);
        try (Nio2Files f = target.open()) {
            AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Outcome<FileLock> pending = new Outcome<>();
            LockHolder holder = LockHolder.lock(file);
            try {
                assertNull(ch.tryLock(), "another process holds the file");
                ch.lock(null, pending);
                assertFalse(pending.endsWithin(200), "the lock is held elsewhere: the attempt waits");
                ch.close();
                assertInstanceOf(AsynchronousCloseException.class, pending.failure(),
                        "close ends a waiting lock attempt");
            } finally {
                holder.release();
            }
            AsynchronousFileChannel after = f.openAsynchronous(file, StandardOpenOption.WRITE);
            LockHolder second = LockHolder.lock(file);
            Future<FileLock> waited;
            try {
                waited = after.lock(50, 10, false);
                assertFalse(waited.isDone(), "held elsewhere");
            } finally {
                second.release();
            }
            FileLock l = get(waited);
            assertTrue(l.isValid(), "once the other process let go, the waiting attempt gets the lock");
            assertSame(after, l.acquiredBy());
            l.release();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void cancellingAFutureDropsItsOutcomeAndWithInterruptionClosesTheChannel(Nio2FileTarget target)
            throws Exception {
        Path file = dir.resolve("cancel");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Future<Integer> done = ch.read(ByteBuffer.allocate(3), 0);
            assertEquals(3, get(done));
            assertFalse(done.cancel(true), "a completed future cannot be cancelled");
            assertTrue(ch.isOpen());
            LockHolder holder = LockHolder.lock(file);
            try {
                Future<FileLock> waiting = ch.lock();
                assertTrue(waiting.cancel(true));
                assertTrue(waiting.isCancelled());
                assertTrue(waiting.isDone());
                assertThrows(CancellationException.class, waiting::get);
                assertFalse(ch.isOpen(), "cancel(true) closes the channel");
            } finally {
                holder.release();
            }
        }
    }

    // ---------------------------------------------------------------- operations started inside a handler

    /** A hang guard for a wait inside a handler: shorter than the test's, so the handler reports it. */
    private static final long NESTED_GUARD_SECONDS = 20;

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aFutureWaitedForInsideAHandlerOfTheSameChannelCompletes(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("nested");
        byte[] data = random(3 * 4096, 17);
        Files.write(file, data);
        try (Nio2Files f = target.open()) {
            AsynchronousFileChannel ch = f.openAsynchronous(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            ByteBuffer first = ByteBuffer.allocateDirect(4096);
            ByteBuffer nested = ByteBuffer.allocate(4096);
            CompletableFuture<Integer> nestedRead = new CompletableFuture<>();
            CompletableFuture<Integer> nestedWrite = new CompletableFuture<>();
            Outcome<Integer> outer = new Outcome<>();
            // The channel's first operation: its handler blocks on the channel's next ones (pool threads are free).
            ch.read(first, 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object attachment) {
                    try {
                        nestedRead.complete(ch.read(nested, 4096).get(NESTED_GUARD_SECONDS, TimeUnit.SECONDS));
                        nestedWrite.complete(ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 2 * 4096)
                                .get(NESTED_GUARD_SECONDS, TimeUnit.SECONDS));
                    } catch (Throwable e) {
                        nestedRead.completeExceptionally(e);
                        nestedWrite.completeExceptionally(e);
                    }
                    outer.completed(n, attachment);
                }

                @Override
                public void failed(Throwable e, Object attachment) {
                    outer.failed(e, attachment);
                }
            });
            assertEquals(4096, outer.value());
            assertEquals(4096, get(nestedRead), "the read waited for inside the handler");
            assertEquals(3, get(nestedWrite), "the write waited for inside the handler");
            assertArrayEquals(Arrays.copyOfRange(data, 0, 4096), bytes(first.flip()));
            assertArrayEquals(Arrays.copyOfRange(data, 4096, 2 * 4096), nested.array());
            ByteBuffer written = ByteBuffer.allocate(3);
            assertEquals(3, get(ch.read(written, 2 * 4096)));
            assertArrayEquals(new byte[] {1, 2, 3}, written.array());
        }
    }

    // ---------------------------------------------------------------- files without a position (a FIFO)

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aFifoFailsEveryReadAndWriteForItHasNoPosition(Nio2FileTarget target) throws Exception {
        Path fifo = Fifo.make(dir, "fifo");
        try (Nio2Files f = target.open();
             java.nio.channels.FileChannel other = java.nio.channels.FileChannel.open(fifo,
                     StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertEquals(3, other.write(ByteBuffer.wrap(new byte[] {1, 2, 3})), "bytes a read could take");
            Callers.call(() -> {
                AsynchronousFileChannel ch = f.openAsynchronous(fifo, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                // Every operation has a position, and pread(2)/pwrite(2) fail on a FIFO ("Illegal seek").
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> get(ch.read(ByteBuffer.allocate(3), 0)));
                assertInstanceOf(java.io.IOException.class, e.getCause());
                Outcome<Integer> w = new Outcome<>();
                ch.write(ByteBuffer.allocateDirect(1), 0, "w", w);
                assertInstanceOf(java.io.IOException.class, w.failure());
                assertEquals("w", w.attachment());
                assertEquals(0, get(ch.read(ByteBuffer.allocate(0), 0)), "nothing to read: no system call");
                assertEquals(0, ch.size());
                assertTrue(ch.isOpen());
            });
            ByteBuffer left = ByteBuffer.allocate(3);
            assertEquals(3, other.read(left), "no byte was taken from the FIFO");
            assertArrayEquals(new byte[] {1, 2, 3}, left.array());
        }
    }
}
