package dev.proactor.conformance;

import static dev.proactor.conformance.Nio2Fixture.get;
import static dev.proactor.conformance.Nio2Fixture.writeFully;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a NIO.2 program may wait for inside a handler, and what a caller may wait for while handlers run: a handler
 * that waits for the next operation of its own channel, an operation whose bytes are already there while every
 * thread of the group waits, a group shut down while a handler waits for the caller, a cancelled accept, and what a
 * handler leaves behind on its thread. The JDK completes each at once; so must every engine. Written once and run
 * against the JDK's provider (the reference) and ours on every engine: a concrete subclass names its
 * engine ({@link EngineUnderTest}). Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2WaitingHandlerConformanceTest {

    /** Row {@code NIO2_WAITING_HANDLER} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_WAITING_HANDLER, test);
    }

    private static final String NAME = "[{index}] {0}";

    /**
     * A read handler waits (future) for the next read of its channel, whose byte is already there. The first read
     * is started before its bytes arrive, so the engine (not the starting call) completes it.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aReadHandlerMayWaitForTheNextReadOfItsChannel(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(1, "client"), f.server(g));
            ByteBuffer second = ByteBuffer.allocate(1);
            Outcome<Integer> nested = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(1), null, new Waiting<>(nested,
                    () -> get(p.accepted().read(second))));
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {1, 2}));
            assertEquals(1, nested.value());
            assertEquals(2, second.get(0));
        }
    }

    /**
     * An accept handler waits (future) for the next accept of its channel, whose connection is already queued. The
     * first accept is started before its connection comes, so the engine (not the starting call) completes it.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anAcceptHandlerMayWaitForTheNextAcceptOfItsChannel(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            AsynchronousServerSocketChannel server = f.server(g);
            CountDownLatch secondQueued = new CountDownLatch(1);
            Outcome<AsynchronousSocketChannel> nested = new Outcome<>();
            server.accept(null, new Waiting<AsynchronousSocketChannel, AsynchronousSocketChannel>(nested, () -> {
                assertTrue(secondQueued.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never queued");
                return f.track(get(server.accept()));
            }));
            try (Socket first = new Socket(); Socket second = new Socket()) {
                first.connect(server.getLocalAddress());
                second.connect(server.getLocalAddress()); // in the backlog once connect returns
                secondQueued.countDown();
                assertNotNull(nested.value());
            }
        }
    }

    /**
     * A read drains the socket; more bytes arrive while its handler runs on the group's only thread; the handler
     * then waits (future) for a read of them: it must be tried at once, since no thread of the group is left to
     * wait for the socket.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aFutureReadAfterAReadThatDrainedTheSocketIsTriedAtOnce(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(1, "client"), f.server(g));
            CountDownLatch drained = new CountDownLatch(1);
            CountDownLatch moreSent = new CountDownLatch(1);
            ByteBuffer more = ByteBuffer.allocate(8);
            Outcome<Integer> nested = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(64), null, new Waiting<>(nested, () -> {
                drained.countDown();
                assertTrue(moreSent.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never sent");
                return get(p.accepted().read(more));
            }));
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {1})); // read whole: the socket is drained
            assertTrue(drained.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the first read");
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {2}));
            moreSent.countDown();
            assertEquals(1, nested.value());
            assertEquals(2, more.get(0));
        }
    }

    /** {@code shutdownNow()} returns while a handler of the group waits for its caller. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void shutdownNowReturnsWhileAHandlerWaitsForTheCaller(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            whileAHandlerWaitsForTheCaller(f, g, () -> {
                g.shutdownNow();
                return null;
            });
        }
    }

    /** After {@code shutdown()}, closing the group's last channel returns while a handler waits for its caller. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void closingTheLastChannelOfAShutDownGroupReturnsWhileAHandlerWaitsForTheCaller(Nio2Target target)
            throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            whileAHandlerWaitsForTheCaller(f, g, null);
        }
    }

    /**
     * Runs {@code call} (or, if null, {@code shutdown()} and closes every channel of {@code g}) on another thread
     * while a handler of {@code g} waits for that call to return; the call must return (the handler then goes on)
     * and the group must terminate.
     */
    private static void whileAHandlerWaitsForTheCaller(Nio2Fixture f, AsynchronousChannelGroup g,
                                                       java.util.concurrent.Callable<Void> call) throws Exception {
        AsynchronousServerSocketChannel server = f.server(g);
        Nio2Fixture.Pair p = f.pair(f.fixedGroup(1, "client"), server);
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch callerReturned = new CountDownLatch(1);
        Outcome<Boolean> handler = new Outcome<>();
        p.accepted().read(ByteBuffer.allocate(8), null, new Waiting<>(handler, () -> {
            inHandler.countDown();
            return callerReturned.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS);
        }));
        writeFully(p.client(), ByteBuffer.wrap(new byte[] {1}));
        assertTrue(inHandler.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: the handler never ran");
        ExecutorService caller = Executors.newSingleThreadExecutor(Nio2Fixture.named("caller"));
        try {
            Future<Void> returned = caller.submit(call != null ? call : () -> {
                g.shutdown();
                server.close();
                p.accepted().close();
                return null;
            });
            try {
                get(returned);
            } finally {
                callerReturned.countDown(); // lets the handler go, so a failed test still ends
            }
            assertTrue(handler.value(), "the handler saw the caller return");
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never terminated");
        } finally {
            caller.shutdownNow();
        }
    }

    /**
     * A cancelled accept future does not stop the accept: the connection it takes is closed (the peer sees the end
     * of the stream or a reset), not leaked, and the group still terminates.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void theConnectionACancelledAcceptTakesIsClosed(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "single");
            AsynchronousServerSocketChannel server = f.server(g);
            Future<AsynchronousSocketChannel> accept = server.accept();
            assertTrue(accept.cancel(false));
            try (Socket peer = new Socket()) {
                peer.connect(server.getLocalAddress());
                peer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS)); // a hang guard
                assertTrue(endsOrResets(peer.getInputStream()), "the peer saw its connection closed");
            }
            server.close();
            g.shutdown();
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: never terminated");
        }
    }

    private static boolean endsOrResets(InputStream in) throws IOException {
        try {
            return in.read() == -1;
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("hang guard: the connection was never closed", e);
        } catch (SocketException reset) {
            return true;
        }
    }

    /** Operations ended by {@code shutdownNow()} have their handlers run on the group's threads, not the caller's. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void handlersOfOperationsEndedByShutdownNowRunOnTheGroupsThreads(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(1, "client"), server);
            Outcome<Integer> read = new Outcome<>();
            p.accepted().read(ByteBuffer.allocate(8), null, read);
            Outcome<AsynchronousSocketChannel> accept = new Outcome<>();
            server.accept(null, accept);
            g.shutdownNow();
            for (Outcome<?> o : List.of(read, accept)) {
                assertInstanceOf(AsynchronousCloseException.class, o.failure());
                String thread = o.thread().getName();
                assertTrue(thread.startsWith("fixed-"), () -> "ran on " + thread);
            }
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + g);
        }
    }

    /** A handler that leaves its thread interrupted: the next handler on that thread does not see it. */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void theInterruptStatusAHandlerLeavesIsClearedBeforeTheNextHandler(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            List<AsynchronousChannelGroup> groups = new ArrayList<>();
            groups.add(f.fixedGroup(1, "single"));
            groups.add(f.executorGroup("executor", 1));
            for (AsynchronousChannelGroup g : groups) {
                Nio2Fixture.Pair p = f.pair(f.fixedGroup(1, "client"), f.server(g));
                for (int i = 0; i < 3; i++) {
                    Outcome<Boolean> interruptedAtStart = new Outcome<>();
                    p.accepted().read(ByteBuffer.allocate(8), null, new Waiting<>(interruptedAtStart, () -> {
                        boolean seen = Thread.currentThread().isInterrupted();
                        Thread.currentThread().interrupt(); // left behind on purpose
                        return seen;
                    }));
                    writeFully(p.client(), ByteBuffer.wrap(new byte[] {(byte) i}));
                    assertFalse(interruptedAtStart.value(), "handler " + i + " found its thread interrupted");
                }
            }
        }
    }

    /** A step of a handler that may throw. */
    interface Step<V> {
        V run() throws Exception;
    }

    /** A handler whose completion runs {@code step} and records what it returns (or throws) in {@code outcome}. */
    private static final class Waiting<V, R> implements CompletionHandler<V, Object> {
        private final Outcome<R> outcome;
        private final Step<R> step;

        Waiting(Outcome<R> outcome, Step<R> step) {
            this.outcome = outcome;
            this.step = step;
        }

        @Override
        public void completed(V value, Object a) {
            try {
                outcome.completed(step.run(), a);
            } catch (Exception | AssertionError e) {
                outcome.failed(e, a);
            }
        }

        @Override
        public void failed(Throwable e, Object a) {
            outcome.failed(e, a);
        }
    }
}
