package dev.proactor.conformance;

import static dev.proactor.conformance.Nio2Fixture.get;
import static dev.proactor.conformance.Nio2Fixture.readFully;
import static dev.proactor.conformance.Nio2Fixture.writeFully;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.IllegalChannelGroupException;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contracts of {@link AsynchronousChannelGroup} as a NIO.2 program sees them: where handlers run, how
 * completions that need no I/O are delivered, what a handler that throws or blocks does to the group, life
 * cycle, and operations outliving the thread that started them. Written once and run against the JDK's provider
 * (the reference) and ours on every engine: a concrete subclass declares {@code static Stream<Nio2Target>
 * targets()}. Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2GroupConformanceTest {

    private static final String NAME = "[{index}] {0}";

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void handlersRunOnTheThreadsOfAFixedGroup(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            assertEveryHandlerRunsOn(f, f.fixedGroup(2, "fixed"), "fixed-");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void handlersOfAnExecutorGroupRunOnTheExecutorsThreads(Nio2Target target) throws Exception {
        for (int initialSize : new int[] {0, 2}) {
            try (Nio2Fixture f = new Nio2Fixture(target)) {
                assertEveryHandlerRunsOn(f, f.executorGroup("pool", initialSize), "pool-");
            }
        }
    }

    /**
     * A group is also an {@link java.util.concurrent.Executor} (the JDK's groups are, and OpenJDK's own tests cast
     * them): a task runs on a thread of the group, one that throws leaves the group serving, and a terminated
     * group rejects tasks.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aGroupRunsTasksOnItsThreads(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            for (AsynchronousChannelGroup g : List.of(f.fixedGroup(1, "fixed"), f.executorGroup("pool"))) {
                Executor executor = assertInstanceOf(Executor.class, g);
                executor.execute(() -> {
                    throw new IllegalStateException("a task that throws (expected by the test)");
                });
                CompletableFuture<Thread> ran = new CompletableFuture<>();
                executor.execute(() -> ran.complete(Thread.currentThread()));
                assertOnAGroupThread(ran.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "task");
                g.shutdown();
                assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS));
                assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> { }));
            }
        }
    }

    /**
     * A channel closed by a thread outside its group: the pending read's handler still runs on a thread of the
     * group (the JDK never runs a handler on the closing thread).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aCloseFromAForeignThreadFailsThePendingHandlerOnAThreadOfTheGroup(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            for (AsynchronousChannelGroup g : List.of(f.fixedGroup(1, "fixed"), f.executorGroup("pool"))) {
                Nio2Fixture.Pair p = f.pair(g);
                Outcome<Integer> read = new Outcome<>();
                p.client().read(ByteBuffer.allocate(8), null, read); // the peer sends nothing: pending until closed
                p.client().close();
                assertInstanceOf(AsynchronousCloseException.class, read.failure());
                assertOnAGroupThread(read.thread(), "handler");
            }
        }
    }

    /**
     * One handler hopping between channels of several groups (fixed and executor ones), each write started by
     * the handler of the one before, on a thread of another group: every completion runs on a thread of its own
     * channel's group, whichever thread started it and however fast the starts and completions race.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void handlersHoppingBetweenGroupsRunOnTheirOwnGroupsThreads(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            int groups = 6;
            AsynchronousSocketChannel[] channels = new AsynchronousSocketChannel[groups];
            String[] prefixes = new String[groups];
            AsynchronousServerSocketChannel sink = f.server(f.fixedGroup(1, "sink"));
            sink.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                @Override
                public void completed(AsynchronousSocketChannel ch, Void a) {
                    sink.accept(null, this);
                    drain(f.track(ch), ByteBuffer.allocate(256));
                }

                @Override
                public void failed(Throwable e, Void a) {
                }
            });
            for (int i = 0; i < groups; i++) {
                prefixes[i] = "hop" + i + (i % 2 == 0 ? "fixed" : "pool");
                AsynchronousChannelGroup g = i % 2 == 0 ? f.fixedGroup(1 + i / 2, prefixes[i])
                        : f.executorGroup(prefixes[i], i / 2);
                channels[i] = f.socket(g);
                get(channels[i].connect(sink.getLocalAddress()));
            }
            AtomicInteger left = new AtomicInteger(2_000);
            CompletableFuture<String> done = new CompletableFuture<>();
            channels[0].write(ByteBuffer.allocate(1), 0, new CompletionHandler<Integer, Integer>() {
                @Override
                public void completed(Integer n, Integer group) {
                    String thread = Thread.currentThread().getName();
                    if (!thread.startsWith(prefixes[group] + "-")) {
                        done.complete("the handler of a channel of " + prefixes[group] + " ran on " + thread);
                    } else if (left.decrementAndGet() == 0) {
                        done.complete("ok");
                    } else {
                        int next = ThreadLocalRandom.current().nextInt(groups);
                        channels[next].write(ByteBuffer.allocate(1), next, this);
                    }
                }

                @Override
                public void failed(Throwable e, Integer group) {
                    done.complete("a write failed: " + e);
                }
            });
            assertEquals("ok", done.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS));
        }
    }

    /** {@code thread}, which ran a {@code what}, is one of the test's groups ({@code fixed-N} or {@code pool-N}). */
    private static void assertOnAGroupThread(Thread thread, String what) {
        String name = thread.getName();
        assertTrue(name.startsWith("fixed-") || name.startsWith("pool-"), () -> what + " ran on " + name);
    }

    /** Reads {@code ch} until the end of the stream, with handlers. */
    private static void drain(AsynchronousSocketChannel ch, ByteBuffer buf) {
        ch.read(buf, null, new CompletionHandler<Integer, Void>() {
            @Override
            public void completed(Integer n, Void a) {
                if (n >= 0) {
                    buf.clear();
                    ch.read(buf, null, this);
                }
            }

            @Override
            public void failed(Throwable e, Void a) {
            }
        });
    }

    /** Accepts, connects, reads and writes with handlers in {@code g}; each handler ran on a thread named so. */
    private static void assertEveryHandlerRunsOn(Nio2Fixture f, AsynchronousChannelGroup g, String threadPrefix)
            throws Exception {
        AsynchronousServerSocketChannel server = f.server(g);
        Outcome<AsynchronousSocketChannel> accepted = new Outcome<>();
        server.accept(null, accepted);
        AsynchronousSocketChannel client = f.socket(g);
        Outcome<Void> connected = new Outcome<>();
        client.connect(server.getLocalAddress(), null, connected);
        connected.value();
        AsynchronousSocketChannel peer = f.track(accepted.value());
        Outcome<Integer> read = new Outcome<>();
        peer.read(ByteBuffer.allocate(8), null, read);
        Outcome<Integer> written = new Outcome<>();
        client.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), null, written);
        assertEquals(3, written.value());
        assertTrue(read.value() > 0);
        for (Outcome<?> o : List.of(accepted, connected, read, written)) {
            String thread = o.thread().getName();
            assertTrue(thread.startsWith(threadPrefix), () -> "handler ran on " + thread);
        }
    }

    /** An operation that needs no I/O, started by a thread outside the group, still runs its handler in it. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anOperationCompletingAtOnceOnAForeignThreadIsDispatchedToTheGroup(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            for (AsynchronousChannelGroup g : List.of(f.fixedGroup(1, "fixed"), f.executorGroup("pool"))) {
                Nio2Fixture.Pair p = f.pair(g);
                Outcome<Integer> nothingToRead = new Outcome<>();
                p.client().read(ByteBuffer.allocate(0), null, nothingToRead);
                assertEquals(0, nothingToRead.value());
                Outcome<Integer> nothingToWrite = new Outcome<>();
                p.client().write(ByteBuffer.allocate(0), null, nothingToWrite);
                assertEquals(0, nothingToWrite.value());
                // A small write that the socket takes at once (completed while it starts).
                Outcome<Integer> atOnce = new Outcome<>();
                p.client().write(ByteBuffer.allocateDirect(3), null, atOnce);
                assertEquals(3, atOnce.value());
                for (Outcome<?> o : List.of(nothingToRead, nothingToWrite, atOnce)) {
                    assertOnAGroupThread(o.thread(), "handler");
                }
            }
        }
    }

    /**
     * A handler that starts operations completing without I/O, one from the other's handler, 100 000 times: the
     * group invokes a bounded number directly and hands the rest off, so the stack never overflows.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void chainedOperationsThatCompleteAtOnceNeverOverflowTheStack(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            for (AsynchronousChannelGroup g : List.of(f.fixedGroup(1, "fixed"), f.executorGroup("pool"))) {
                Nio2Fixture.Pair p = f.pair(g);
                int rounds = 100_000;
                AtomicInteger done = new AtomicInteger();
                AtomicInteger deepest = new AtomicInteger();
                Outcome<Integer> last = new Outcome<>();
                ByteBuffer full = ByteBuffer.allocate(0);
                CompletionHandler<Integer, Object> chain = new CompletionHandler<>() {
                    @Override
                    public void completed(Integer n, Object a) {
                        int i = done.incrementAndGet();
                        if (i % 10_000 == 0) {
                            deepest.accumulateAndGet(Thread.currentThread().getStackTrace().length, Math::max);
                        }
                        if (i == rounds) {
                            last.completed(n, a);
                        } else {
                            p.client().read(full, null, this);
                        }
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                        last.failed(e, a);
                    }
                };
                // The first read is started on a thread of the group (from a handler), as a program's would be.
                Outcome<Integer> first = new Outcome<>();
                p.accepted().read(ByteBuffer.allocate(1), null, new CompletionHandler<Integer, Object>() {
                    @Override
                    public void completed(Integer n, Object a) {
                        first.completed(n, a);
                        p.client().read(full, null, chain);
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                        first.failed(e, a);
                    }
                });
                writeFully(p.client(), ByteBuffer.wrap(new byte[] {7}));
                assertEquals(1, first.value());
                assertEquals(0, last.value());
                assertEquals(rounds, done.get());
                assertTrue(deepest.get() < 2_000, () -> "stack grew to " + deepest.get() + " frames");
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aGroupOfAnotherProviderIsRefused(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup foreign = new ForeignChannelProvider().group();
            assertThrows(IllegalChannelGroupException.class, () -> f.provider.openAsynchronousSocketChannel(foreign));
            assertThrows(IllegalChannelGroupException.class,
                    () -> f.provider.openAsynchronousServerSocketChannel(foreign));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void shutdownRefusesNewChannelsAndTerminatesOnceTheLastChannelCloses(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            Nio2Fixture.Pair p = f.pair(g);
            g.shutdown();
            assertTrue(g.isShutdown());
            assertFalse(g.isTerminated());
            assertThrows(ShutdownChannelGroupException.class, () -> f.provider.openAsynchronousSocketChannel(g));
            assertThrows(ShutdownChannelGroupException.class,
                    () -> f.provider.openAsynchronousServerSocketChannel(g));
            // The channels it has still work.
            writeFully(p.client(), ByteBuffer.wrap("still".getBytes(StandardCharsets.US_ASCII)));
            assertEquals("still", StandardCharsets.US_ASCII.decode(readFully(p.accepted(), 5)).toString());
            p.client().close();
            p.accepted().close();
            assertFalse(g.awaitTermination(0, TimeUnit.SECONDS), "the listening channel is still open");
            p.server().close();
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never terminated");
            assertTrue(g.isTerminated());
        }
    }

    /** A connection accepted after the group was shut down is refused: an I/O error caused by the shutdown. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anAcceptCompletingAfterShutdownFailsWithAnIoErrorCausedByIt(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            Future<AsynchronousSocketChannel> accept = server.accept();
            g.shutdown();
            try (Socket peer = new Socket()) {
                peer.connect(server.getLocalAddress());
                java.util.concurrent.ExecutionException e =
                        assertThrows(java.util.concurrent.ExecutionException.class, () -> get(accept));
                assertInstanceOf(java.io.IOException.class, e.getCause());
                assertInstanceOf(ShutdownChannelGroupException.class, e.getCause().getCause());
            }
            server.close();
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never terminated");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void shutdownNowClosesEveryChannelAndFailsPendingOperations(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            Nio2Fixture.Pair p = f.pair(g);
            // The read's peer is outside the group, so only the close can end it (not an end of stream).
            Future<AsynchronousSocketChannel> acceptedFuture = p.server().accept();
            try (Socket outside = new Socket()) {
                outside.connect(p.server().getLocalAddress());
                AsynchronousSocketChannel accepted = f.track(get(acceptedFuture));
                Outcome<Integer> read = new Outcome<>();
                accepted.read(ByteBuffer.allocate(8), null, read);
                Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
                p.server().accept(null, accept);
                g.shutdownNow();
                assertTrue(g.isShutdown());
                assertInstanceOf(AsynchronousCloseException.class, read.failure());
                assertInstanceOf(AsynchronousCloseException.class, accept.failure());
                for (java.nio.channels.Channel ch : List.of(p.client(), p.accepted(), p.server(), accepted)) {
                    assertFalse(ch.isOpen(), () -> ch + " still open");
                }
                assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                        "hang guard: never terminated");
            }
        }
    }

    /**
     * The default group grows as the JDK's does: handlers blocked in it (more than it has threads at start) do not
     * stop it from serving others.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void theDefaultGroupServesWhileHandlersBlockInIt(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousServerSocketChannel server = f.server(null);
            int blocked = Runtime.getRuntime().availableProcessors() + 2;
            CountDownLatch entered = new CountDownLatch(blocked);
            CountDownLatch release = new CountDownLatch(1);
            try {
                for (int i = 0; i < blocked; i++) {
                    Nio2Fixture.Pair p = f.pair(null, server);
                    p.accepted().read(ByteBuffer.allocate(1), null, new CompletionHandler<Integer, Object>() {
                        @Override
                        public void completed(Integer n, Object a) {
                            entered.countDown();
                            awaitQuietly(release);
                        }

                        @Override
                        public void failed(Throwable e, Object a) {
                        }
                    });
                    writeFully(p.client(), ByteBuffer.wrap(new byte[] {1}));
                }
                assertTrue(entered.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                        () -> "hang guard: only " + (blocked - entered.getCount()) + " handlers ran");
                Nio2Fixture.Pair other = f.pair(null, server);
                Outcome<Integer> read = new Outcome<>();
                other.accepted().read(ByteBuffer.allocate(4), null, read);
                writeFully(other.client(), ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
                assertTrue(read.value() > 0);
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * A handler on a one-thread executor blocks on a read of its own channel (with a future, as blocking servlet
     * I/O on Tomcat's NIO2 connector does) while another completion waits in the executor's queue behind it: the
     * read completes, and the queued handler runs afterwards.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aHandlerMayBlockOnItsOwnReadWhileACompletionWaitsBehindItOnAOneThreadExecutor(Nio2Target target)
            throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                Nio2Fixture.named("single"));
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.executorGroup(pool);
            AsynchronousServerSocketChannel server = f.server(g);
            Nio2Fixture.Pair blocking = f.pair(g, server);
            Nio2Fixture.Pair queued = f.pair(g, server);
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> awaitQuietly(release)); // holds the thread until both completions are queued
            CountDownLatch reading = new CountDownLatch(1);
            Outcome<Integer> blockingRead = new Outcome<>();
            blocking.accepted().read(ByteBuffer.allocate(1), null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    reading.countDown();
                    try {
                        blockingRead.completed(get(blocking.accepted().read(ByteBuffer.allocate(8))), null);
                    } catch (Exception | AssertionError e) {
                        blockingRead.failed(e, null);
                    }
                }

                @Override
                public void failed(Throwable e, Object a) {
                    blockingRead.failed(e, null);
                }
            });
            Outcome<Integer> behind = new Outcome<>();
            queued.accepted().read(ByteBuffer.allocate(1), null, behind);
            writeFully(blocking.client(), ByteBuffer.wrap(new byte[] {1}));
            writeFully(queued.client(), ByteBuffer.wrap(new byte[] {2}));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Outcome.GUARD_SECONDS);
            while (pool.getQueue().size() < 2) {
                assertTrue(System.nanoTime() - deadline < 0, "hang guard: the completions never reached the executor");
                Thread.sleep(1);
            }
            release.countDown();
            assertTrue(reading.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the handler never ran");
            writeFully(blocking.client(), ByteBuffer.wrap(new byte[] {3, 4, 5}));
            assertTrue(blockingRead.value() > 0);
            assertEquals(1, behind.value());
            assertTrue(behind.thread().getName().startsWith("single-"));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a handler throws goes to its thread's uncaught-exception handler, and the group goes on serving. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aHandlerThatThrowsLeavesTheGroupServing(Nio2Target target) throws Exception {
        LinkedBlockingQueue<Throwable> uncaught = new LinkedBlockingQueue<>();
        ThreadFactory reporting = r -> {
            Thread t = Nio2Fixture.named("throwing").newThread(r);
            t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
            return t;
        };
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            ExecutorService pool = Executors.newCachedThreadPool(reporting);
            List<AsynchronousChannelGroup> groups = List.of(
                    f.provider.openAsynchronousChannelGroup(1, reporting),
                    f.provider.openAsynchronousChannelGroup(pool, 0));
            for (AsynchronousChannelGroup g : groups) {
                try {
                    Nio2Fixture.Pair p = f.pair(g);
                    RuntimeException boom = new IllegalStateException("thrown by a handler on purpose");
                    p.accepted().read(ByteBuffer.allocate(1), null, new CompletionHandler<Integer, Object>() {
                        @Override
                        public void completed(Integer n, Object a) {
                            throw boom;
                        }

                        @Override
                        public void failed(Throwable e, Object a) {
                        }
                    });
                    writeFully(p.client(), ByteBuffer.wrap(new byte[] {1}));
                    assertSame(boom, uncaught.poll(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                            "the thread's uncaught-exception handler got it");
                    Outcome<Integer> next = new Outcome<>();
                    p.accepted().read(ByteBuffer.allocate(1), null, next);
                    writeFully(p.client(), ByteBuffer.wrap(new byte[] {2}));
                    assertEquals(1, next.value());
                } finally {
                    g.shutdownNow();
                    assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + g);
                }
            }
        }
    }

    /** A handler on the only thread of a group closes channels and shuts the group down: nothing waits on itself. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closingChannelsInsideAHandlerOfAOneThreadGroupNeverDeadlocks(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            Nio2Fixture.Pair a = f.pair(g);
            Nio2Fixture.Pair b = f.pair(g, a.server());
            Outcome<Integer> otherRead = new Outcome<>();
            b.accepted().read(ByteBuffer.allocate(8), null, otherRead);
            Outcome<Integer> closer = new Outcome<>();
            a.accepted().read(ByteBuffer.allocate(8), null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object att) {
                    try {
                        b.accepted().close();
                        a.accepted().close();
                        a.client().close();
                        g.shutdownNow();
                        closer.completed(n, att);
                    } catch (Exception | Error e) {
                        closer.failed(e, att);
                    }
                }

                @Override
                public void failed(Throwable e, Object att) {
                    closer.failed(e, att);
                }
            });
            writeFully(a.client(), ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, closer.value());
            assertInstanceOf(AsynchronousCloseException.class, otherRead.failure());
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never terminated");
        }
    }

    /**
     * Accept, connect, read and write each started by a thread that has exited before the operation can complete:
     * all complete (an engine must not tie a request to the thread that asked for it).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void operationsStartedByThreadsThatExitStillComplete(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            Outcome<AsynchronousSocketChannel> accepted = new Outcome<>();
            onThreadThatExits(() -> server.accept(null, accepted));
            AsynchronousSocketChannel client = f.socket(g);
            Outcome<Void> connected = new Outcome<>();
            onThreadThatExits(() -> client.connect(server.getLocalAddress(), null, connected));
            connected.value();
            AsynchronousSocketChannel peer = f.track(accepted.value());
            ByteBuffer dst = ByteBuffer.allocate(5);
            Outcome<Integer> read = new Outcome<>();
            onThreadThatExits(() -> peer.read(dst, null, read));
            Outcome<Integer> written = new Outcome<>();
            onThreadThatExits(() -> client.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)),
                    null, written));
            assertEquals(5, written.value());
            int n = read.value();
            assertTrue(n > 0);
            dst.flip();
            assertEquals("hello".substring(0, n), StandardCharsets.US_ASCII.decode(dst).toString());
        }
    }

    /** A step that may throw, run on a new thread that is joined (has exited) before this returns. */
    interface Step {
        void run() throws Exception;
    }

    private static void onThreadThatExits(Step step) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                step.run();
            } catch (Exception e) {
                failure.set(e);
            }
        }, "short-lived");
        t.start();
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
