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

import dev.proactor.conformance.ConfigurationTable.Suite;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contracts of {@link AsynchronousChannelGroup} as a NIO.2 program sees them: life cycle, what a handler that
 * throws or blocks does to the group, the default group, and operations outliving the thread that started them
 * (where handlers run is in {@link AbstractNio2HandlerThreadsConformanceTest}). Written once and run against the
 * JDK's provider (the reference) and ours on every engine: a concrete subclass names its
 * engine ({@link EngineUnderTest}). Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2GroupConformanceTest {

    /** Row {@code NIO2_GROUP} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_GROUP, test);
    }

    private static final String NAME = "[{index}] {0}";

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
