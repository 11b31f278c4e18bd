package dev.proactor.conformance;

import static dev.proactor.conformance.Nio2Fixture.get;
import static dev.proactor.conformance.Nio2Fixture.writeFully;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the handlers of an {@link AsynchronousChannelGroup}'s channels run, as a NIO.2 program sees it: on the
 * threads of a fixed group or of an executor's, tasks given to the group, completions that need no I/O or that
 * another thread caused (a start on a foreign thread, a close, a handler hopping between groups), and nested
 * completions that never overflow the stack. The group's life cycle and handlers that throw or block are in
 * {@link AbstractNio2GroupConformanceTest}. Written once and run against the JDK's provider (the reference) and
 * ours on every engine: a concrete subclass names its engine ({@link EngineUnderTest}). Waits are hang
 * guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2HandlerThreadsConformanceTest {

    /** Row {@code NIO2_HANDLER_THREADS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_HANDLER_THREADS, test);
    }

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
            for (AsynchronousChannelGroup g : aFixedAndAnExecutorGroup(f)) {
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
            for (AsynchronousChannelGroup g : aFixedAndAnExecutorGroup(f)) {
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

    /** A fixed group of one thread and a group on a cached pool, named as {@link #assertOnAGroupThread} expects. */
    private static List<AsynchronousChannelGroup> aFixedAndAnExecutorGroup(Nio2Fixture f) throws IOException {
        return List.of(f.fixedGroup(1, "fixed"), f.executorGroup("pool"));
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
            for (AsynchronousChannelGroup g : aFixedAndAnExecutorGroup(f)) {
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
     * A thread of an executor group's executor that has run a handler of the group stays a thread of the group, as
     * in the JDK: an operation the program starts on it later, outside any handler (a server's worker thread
     * writing a response, as Tomcat's do), that completes at once has its handler run right there, before the call
     * returns, not after a trip through the executor's queue.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aThreadOfTheExecutorThatRanAHandlerRunsTheHandlerOfAnOperationCompletingAtOnce(Nio2Target target)
            throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            ExecutorService pool = Executors.newSingleThreadExecutor(Nio2Fixture.named("worker"));
            Nio2Fixture.Pair p = f.pair(f.executorGroup(pool));
            Outcome<Integer> read = new Outcome<>();
            p.client().read(ByteBuffer.allocate(1), null, read);
            writeFully(p.accepted(), ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, read.value());
            assertEquals("worker-1", read.thread().getName());
            CompletableFuture<String> where = new CompletableFuture<>();
            pool.execute(() -> { // the program's own task, not one of the group's
                Thread caller = Thread.currentThread();
                AtomicBoolean returned = new AtomicBoolean();
                p.client().write(ByteBuffer.allocateDirect(3), null, new CompletionHandler<Integer, Void>() {
                    @Override
                    public void completed(Integer n, Void a) {
                        boolean direct = Thread.currentThread() == caller && !returned.get();
                        where.complete(direct ? "direct" : "on " + Thread.currentThread().getName()
                                + (returned.get() ? " after write returned" : " while write ran"));
                    }

                    @Override
                    public void failed(Throwable e, Void a) {
                        where.complete("failed: " + e);
                    }
                });
                returned.set(true);
            });
            assertEquals("direct", where.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS));
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
            for (AsynchronousChannelGroup g : aFixedAndAnExecutorGroup(f)) {
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
}
