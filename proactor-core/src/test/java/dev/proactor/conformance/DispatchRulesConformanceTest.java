package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.NotifyLevel;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dispatcher's rules on real sockets, run by every engine module like {@link AbstractConformanceTest}: a
 * concrete subclass names its engine ({@link EngineUnderTest}). Error paths keep the
 * per-direction order; leadership passes on; a zero timeout polls; interrupts and handler errors never stop or
 * spin the pool; operations after close complete; misuse throws at the call. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class DispatchRulesConformanceTest {

    /** Row {@code DISPATCH_RULES} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.DISPATCH_RULES, test);
    }

    private static final long GUARD_SECONDS = 60;
    private static final String NAME = "[{index}] {0}";

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + what + " never happened");
    }

    /** Closes what an accept test opened; {@code server} may be null. */
    private static void closeAll(List<AsynchChannel> accepted, List<SocketChannel> clients, AsynchChannel server)
            throws IOException {
        for (AsynchChannel a : accepted) {
            a.close();
        }
        for (SocketChannel c : clients) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }



    // ------------------------------------------------------------------------------------ error paths keep order

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeCompletesQueuedReadsInStartOrderNeverConcurrently(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        int n = 30;
        ReadRecorder h = new ReadRecorder(n);
        try (Demultiplexor demux = Demultiplexor.open(config).start(); SocketPair pair = new SocketPair(demux, h)) {
            for (int i = 0; i < n; i++) {
                pair.server.read(ByteBuffer.allocate(8), i);
            }
            pair.server.close();
            await(h.done, "close completes every read");
            assertFalse(h.overlapped.get(), "two read callbacks of one channel ran at the same time");
            for (int i = 0; i < n; i++) {
                assertEquals(i, h.order.get(i), "completion order " + h.order);
                assertInstanceOf(AsynchronousCloseException.class, h.errors.get(i));
            }
        }
    }

    /**
     * The misuse of closing the wrapped JDK channel directly never leaves a pending read waiting forever (the
     * selector drops a closed channel's key silently; the epoll engine holds a duplicate of its descriptor): the
     * AsynchChannel is closed for the user, the read completes, and the peer sees the connection end.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aWrappedChannelClosedDirectlyCompletesItsPendingReadAndEndsTheConnection(ProactorConfig config)
            throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReadRecorder h = new ReadRecorder(1);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listener.getLocalAddress())) {
                SocketChannel accepted = listener.accept();
                AsynchChannel server = new AsynchChannel(demux, h, accepted);
                server.read(ByteBuffer.allocate(8), 0);
                accepted.close(); // the misuse: behind the AsynchChannel's back

                await(h.done, "the pending read of a channel closed behind its back completes");
                assertInstanceOf(AsynchronousCloseException.class, h.errors.get(0));
                client.socket().setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
                try {
                    assertEquals(-1, client.socket().getInputStream().read(), "no byte was ever sent");
                } catch (java.net.SocketException reset) {
                    // a reset also ends the connection
                }
            }
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void demultiplexorCloseInsideACallbackKeepsTheDirectionRules(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        AtomicReference<Demultiplexor> ref = new AtomicReference<>();
        ReadRecorder h = new ReadRecorder(3) {
            @Override
            protected void onRead(OpRead op) {
                if (Integer.valueOf(0).equals(op.getAttachment())) {
                    ref.get().close();
                }
            }
        };
        Demultiplexor demux = Demultiplexor.open(config).start();
        ref.set(demux);
        try (SocketPair pair = new SocketPair(demux, h)) {
            for (int i = 0; i < 3; i++) {
                pair.server.read(ByteBuffer.allocate(8), i);
            }
            pair.send(4);
            await(h.done, "every read completes");
            assertFalse(h.overlapped.get(), "a read callback ran inside another read callback of the channel");
            assertEquals(List.of(0, 1, 2), h.order);
            assertTrue(demux.isClosed());
        } finally {
            demux.close();
        }
    }

    /**
     * A callback that closes the demultiplexor while it holds a lock another callback waits for (a service whose
     * callbacks synchronize on it and that stops on a fatal condition) must not deadlock: close() on a thread of the
     * demultiplexor's loop does not wait for the other threads there, that thread finishes the close once its
     * callback has returned. Before, close() joined the waiting callback's thread, which waited for the lock.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aCallbackClosingTheDemultiplexorUnderALockAnotherCallbackWaitsForDoesNotDeadlock(ProactorConfig config)
            throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReentrantLock service = new ReentrantLock();
        CountDownLatch waiterIn = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        CountDownLatch waiterDone = new CountDownLatch(1);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        OpTimer[] timers = new OpTimer[2];
        Demultiplexor demux = Demultiplexor.open(config).start(Math.max(2, config.threads())); // one runs the waiter
        AsynchHandler h = new AsynchHandler() {
            @Override
            public void onTimerCompleted(OpTimer op) throws InterruptedException {
                if (op == timers[0]) {
                    service.lock();
                    try {
                        demux.post(timers[1], NotifyLevel.STRONG);
                        if (waiterIn.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                            demux.close();
                            closeReturned.countDown();
                        }
                    } finally {
                        service.unlock();
                    }
                } else {
                    waiter.set(Thread.currentThread());
                    waiterIn.countDown();
                    service.lockInterruptibly(); // the test interrupts it if close() never returns
                    service.unlock();
                    waiterDone.countDown();
                }
            }

            @Override
            public void onReadCompleted(OpRead op) {
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }
        };
        try {
            timers[0] = demux.newTimer(h);
            timers[1] = demux.newTimer(h);
            demux.post(timers[0], NotifyLevel.STRONG);
            boolean returned = closeReturned.await(20, TimeUnit.SECONDS);
            if (!returned && waiter.get() != null) {
                waiter.get().interrupt(); // ends the deadlock, so that the pool and this test can end
            }
            assertTrue(returned, "hang guard: close() inside a callback waited for a callback waiting for it");
            await(waiterDone, "the waiting callback got the lock");
            for (int i = 0; i < 6000 && demux.getLivePoolThreads() > 0; i++) {
                Thread.sleep(10); // hang guard only: the closing thread finishes the close after its callback
            }
            assertEquals(0, demux.getLivePoolThreads(), "the close was never finished: pool threads still run");
        } finally {
            demux.close();
        }
    }

    /**
     * close() from a thread whose interrupt status is set (a shutdown path that restored an interrupt, or a callback
     * that left one on the thread that finishes a close) still returns only when the pool has stopped: a callback
     * still running when it returned could use what its caller frees next. Before, the interrupt cut the wait for
     * the first pool thread short.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closeOnAnInterruptedThreadStillWaitsForTheRunningCallbacks(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        Thread closer = Thread.currentThread();
        CountDownLatch inCallback = new CountDownLatch(1);
        AtomicInteger closeReturned = new AtomicInteger();
        AtomicReference<Thread.State> closerSeen = new AtomicReference<>();
        Demultiplexor demux = Demultiplexor.open(config).start();
        AsynchHandler h = new AsynchHandler() {
            @Override
            public void onTimerCompleted(OpTimer op) throws InterruptedException {
                inCallback.countDown();
                // Returns once the closer waits (for this thread, if close() waits) or close() has returned.
                for (int i = 0; i < 20_000 && closeReturned.get() == 0; i++) {
                    Thread.State s = closer.getState();
                    if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                        closerSeen.set(s);
                        return;
                    }
                    Thread.sleep(1);
                }
            }

            @Override
            public void onReadCompleted(OpRead op) {
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }
        };
        try {
            demux.post(demux.newTimer(h), NotifyLevel.STRONG);
            await(inCallback, "the callback runs");
            closer.interrupt();
            demux.close();
            closeReturned.set(1);
            assertTrue(Thread.interrupted(), "close() kept the caller's interrupt status");
            assertEquals(0, demux.getLivePoolThreads(), "close() returned while a callback still ran");
        } finally {
            Thread.interrupted();
            demux.close();
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anOperationStartedAfterTheDemultiplexorClosedCompletes(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReadRecorder h = new ReadRecorder(1);
        Demultiplexor demux = Demultiplexor.open(config).start();
        try (SocketPair pair = new SocketPair(demux, h)) {
            demux.close();
            pair.server.read(ByteBuffer.allocate(8), "late");
            await(h.done, "the read after close completes");
            assertInstanceOf(ClosedChannelException.class, h.errors.get(0));
        }
    }

    /**
     * With {@link AsynchChannel#setCompletionsAtStart} on, a write the engine finishes while starting it (a few
     * bytes into an empty socket buffer: every engine tries a stream write once at start) has its callback run on
     * the calling thread before {@code write} returns; off (the default), never on a thread outside the pool.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void completionsAtStartRunOnTheStartingThreadOnlyWhenAskedFor(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        WriteThreads handler = new WriteThreads(2);
        List<Thread> writers = handler.threads;
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             SocketPair pair = new SocketPair(demux, handler)) {
            ByteBuffer three = ByteBuffer.allocateDirect(3);
            pair.server.setCompletionsAtStart(true);
            pair.server.write(three);
            assertEquals(List.of(Thread.currentThread()), writers, "the callback ran inside write(), on its caller");
            pair.server.setCompletionsAtStart(false);
            pair.server.write(three.clear());
            await(handler.written, "the second write's callback");
            assertTrue(writers.get(1) != Thread.currentThread(), "dispatched by the pool, not the caller");
            pair.receive(6);
        }
    }

    /**
     * With {@link AsynchChannel#setCompletionsAtStart} on, an operation started inside the callback of one that
     * completed at start waits for that callback to return (one callback of a direction at a time), and is then
     * started by the same thread, which also runs its callback if it completes at once: a chain of operations that
     * each complete at start runs on the starting thread, without a round trip through the pool's queue for every
     * second one, up to 16 chained after the first; the rest continue on the pool, in order, nothing lost.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void operationsStartedInCallbacksCompleteOnTheStartingThreadUpToTheChainBound(ProactorConfig config)
            throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        int writes = 40;
        ByteBuffer[] buffers = new ByteBuffer[writes];
        for (int i = 0; i < writes; i++) {
            buffers[i] = ByteBuffer.allocateDirect(3);
        }
        AsynchChannel[] server = new AsynchChannel[1];
        WriteThreads handler = new WriteThreads(writes) {
            @Override
            void afterWrite(int count) {
                if (count < writes) {
                    server[0].write(buffers[count]); // waits until this callback returns
                }
            }
        };
        List<Thread> writers = handler.threads;
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             SocketPair pair = new SocketPair(demux, handler)) {
            server[0] = pair.server;
            pair.server.setCompletionsAtStart(true);
            pair.server.write(buffers[0]);
            await(handler.written, "the chained writes' callbacks");
            Thread me = Thread.currentThread();
            int onCaller = 0;
            while (onCaller < writes && writers.get(onCaller) == me) {
                onCaller++;
            }
            assertEquals(17, onCaller, "callbacks on the starting thread (the first and 16 chained): " + writers);
            for (int i = onCaller; i < writes; i++) {
                assertTrue(writers.get(i) != me, "callback " + i + " ran on the starting thread after the bound");
            }
            pair.receive(3 * writes);
        }
    }

    /**
     * With {@link AsynchChannel#setOverlappingCallbacks} on, a read started inside a read callback does not wait for
     * that callback to return: on a pool of one thread, a callback that waits for the next read of its channel (whose
     * byte is there) sees it complete. Without it, that read would queue behind the very callback that waits.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void withOverlappingCallbacksACallbackMayWaitForTheNextOperationOfItsDirection(ProactorConfig config)
            throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        NestedRead handler = new NestedRead(false, () -> true);
        try (Demultiplexor demux = Demultiplexor.open(config.toBuilder().threads(1).build()).start();
             SocketPair pair = handler.on(new SocketPair(demux, handler))) {
            pair.server.read(ByteBuffer.allocateDirect(1)); // before the bytes: the engine completes it
            pair.send(2);
            assertEquals(1L, handler.outcome());
        }
    }

    /**
     * {@link AsynchChannel#awaitNextOperation}: a read after one that drained the socket is tried at once on the
     * starting thread, whatever the engine's hints, so it completes even when the thread starting it is the pool's
     * only one and then blocks for it (nobody is left to poll).
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void anAwaitedOperationIsTriedAtOnceAfterAReadThatDrainedTheSocket(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        CountDownLatch drained = new CountDownLatch(1);
        CountDownLatch moreSent = new CountDownLatch(1);
        NestedRead handler = new NestedRead(true, () -> {
            drained.countDown(); // one byte into a 64-byte buffer: the socket is drained
            return moreSent.await(GUARD_SECONDS, TimeUnit.SECONDS);
        });
        try (Demultiplexor demux = Demultiplexor.open(config.toBuilder().threads(1).build()).start();
             SocketPair pair = handler.on(new SocketPair(demux, handler))) {
            pair.server.read(ByteBuffer.allocateDirect(64));
            pair.send(1);
            await(drained, "the first read");
            pair.send(1);
            moreSent.countDown();
            assertEquals(1L, handler.outcome());
        }
    }

    /** A step of a callback that may wait; false if its hang guard ran out. */
    interface Step {
        boolean run() throws InterruptedException;
    }

    /**
     * The handler of a read whose callback runs {@code before}, starts the next read of the channel (marked
     * awaited if asked) and waits for it: the nested read's callback records its byte count.
     */
    private static final class NestedRead implements AsynchHandler {
        private final boolean awaited;
        private final Step before;
        private final CountDownLatch nestedDone = new CountDownLatch(1);
        private final AtomicReference<Object> outcome = new AtomicReference<>();
        private final AtomicInteger reads = new AtomicInteger();
        private volatile AsynchChannel server;

        NestedRead(boolean awaited, Step before) {
            this.awaited = awaited;
            this.before = before;
        }

        /** Serves {@code pair}'s server side, with completions at start and overlapping callbacks on. */
        SocketPair on(SocketPair pair) {
            server = pair.server;
            server.setCompletionsAtStart(true);
            server.setOverlappingCallbacks(true);
            return pair;
        }

        @Override
        public void onReadCompleted(OpRead op) throws InterruptedException {
            if (reads.incrementAndGet() > 1) {
                outcome.set(op.getBytesCompleted());
                nestedDone.countDown();
                return;
            }
            if (!before.run()) {
                outcome.set("hang guard: the step before the nested read");
                return;
            }
            if (awaited) {
                server.awaitNextOperation(true);
            }
            server.read(ByteBuffer.allocateDirect(8));
            if (!nestedDone.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                outcome.set("hang guard: the nested read never completed while its caller waited");
            }
        }

        /** What the nested read completed with, or why it did not. */
        Object outcome() throws InterruptedException {
            await(nestedDone, "the nested read");
            return outcome.get();
        }
    }

    /**
     * With {@link AsynchChannel#setCompletionsAtStart} on, an accept of a connection already queued in the backlog
     * completes at start on every engine (its callback runs inside {@code accept}, on the caller), and so does each
     * accept a callback starts while more are queued: a burst of connections is taken without a trip through the
     * engine's wait and the pool for each.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void acceptsOfQueuedConnectionsCompleteAtStart(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        int connections = 5;
        List<Thread> acceptors = new CopyOnWriteArrayList<>();
        List<AsynchChannel> accepted = new CopyOnWriteArrayList<>();
        AsynchChannel[] server = new AsynchChannel[1];
        AsynchHandler handler = new AsynchHandler() {
            @Override
            public void onReadCompleted(OpRead op) {
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
            }

            @Override
            public void onAcceptCompleted(OpAccept op) {
                acceptors.add(Thread.currentThread());
                try {
                    accepted.add(op.adopt(this));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (acceptors.size() < connections) {
                    server[0].accept();
                }
            }
        };
        List<SocketChannel> clients = new ArrayList<>();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            server[0] = AsynchChannel.openServer(demux, handler,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server[0].setCompletionsAtStart(true);
            for (int i = 0; i < connections; i++) {
                clients.add(SocketChannel.open(server[0].getLocalAddress())); // queued: the handshake is done
            }
            server[0].accept();
            assertEquals(Collections.nCopies(connections, Thread.currentThread()), acceptors,
                    "accepts of queued connections ran on their starting thread, inside accept()");
        } finally {
            closeAll(accepted, clients, server[0]);
        }
    }

    // ------------------------------------------------------------------------------------ user-driven loops

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void handleEventsWithZeroTimeoutCollectsReadyIo(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReadRecorder h = new ReadRecorder(1);
        try (Demultiplexor demux = Demultiplexor.open(config); SocketPair pair = new SocketPair(demux, h)) { // no pool
            pair.server.read(ByteBuffer.allocate(8), "r");
            pair.send(4);
            if (config.leader() == LeaderMode.OWNER) {
                assertThrows(IllegalStateException.class, () -> demux.handleEvents(0, TimeUnit.MILLISECONDS),
                        "owner mode: only a pool thread polls, and none was started");
                return; // the close collects the read from the engine all the same
            }
            int dispatched = 0;
            for (int i = 0; i < GUARD_SECONDS * 100 && dispatched == 0; i++) {
                dispatched = demux.handleEvents(0, TimeUnit.MILLISECONDS);
                if (dispatched == 0) {
                    Thread.sleep(10); // the bytes may still be on their way through loopback
                }
            }
            assertEquals(1, dispatched, "handleEvents(0) never collected the ready read");
            assertEquals(List.of("r"), h.order);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aUserLeaderLeavingOnTimeoutHandsThePollToAFollower(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        assumeTrue(config.leader() != LeaderMode.OWNER, "owner mode: a user thread never leads");
        ReadRecorder h = new ReadRecorder(1);
        ExecutorService users = Executors.newFixedThreadPool(2);
        try (Demultiplexor demux = Demultiplexor.open(config); SocketPair pair = new SocketPair(demux, h)) { // no pool
            pair.server.read(ByteBuffer.allocate(8), "r");
            Future<Integer> leader = users.submit(() -> demux.handleEvents(400, TimeUnit.MILLISECONDS));
            Thread.sleep(100); // lets the first thread become the leader (if not, the test passes trivially)
            AtomicReference<Thread> followerThread = new AtomicReference<>();
            Future<Integer> follower = users.submit(() -> {
                followerThread.set(Thread.currentThread());
                return demux.handleEvents(-1, TimeUnit.MILLISECONDS);
            });
            assertEquals(0, leader.get(GUARD_SECONDS, TimeUnit.SECONDS));
            pair.send(4); // after the leader left: only a poll by the follower finds it
            assertEquals(1, follower.get(GUARD_SECONDS, TimeUnit.SECONDS), "nobody polled after the leader left");
            assertNotNull(followerThread.get());
        } finally {
            users.shutdownNow();
        }
    }

    // ------------------------------------------------------------------------------------ pool threads survive

    /**
     * A callback that leaves its pool thread interrupted: the next callback on that thread, already queued (so the
     * thread dispatches it without waiting in between), does not see the interrupt.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void theInterruptACallbackLeavesIsNotSeenByTheNextCallbackOnItsPoolThread(ProactorConfig config)
            throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        OpTimer[] timers = new OpTimer[2];
        CountDownLatch second = new CountDownLatch(1);
        AtomicReference<Boolean> seen = new AtomicReference<>();
        try (Demultiplexor demux = Demultiplexor.open(config.toBuilder().threads(1).build()).start()) {
            AsynchHandler h = new AsynchHandler() {
                @Override
                public void onTimerCompleted(OpTimer op) {
                    if (op == timers[0]) {
                        demux.post(timers[1], NotifyLevel.STRONG); // queued before this callback returns
                        Thread.currentThread().interrupt(); // left behind on purpose
                    } else {
                        seen.set(Thread.currentThread().isInterrupted());
                        second.countDown();
                    }
                }
            };
            timers[0] = demux.newTimer(h);
            timers[1] = demux.newTimer(h);
            demux.post(timers[0], NotifyLevel.STRONG);
            await(second, "the second callback");
            assertFalse(seen.get(), "the second callback found its pool thread interrupted");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aHandlerRestoringTheInterruptStatusLeavesNoPoolThreadInterrupted(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        CountDownLatch served = new CountDownLatch(2);
        AsynchHandler h = new ReadRecorder(2) {
            @Override
            public void onReadCompleted(OpRead op) {
                served.countDown();
                Thread.currentThread().interrupt(); // the "restore the interrupt status" idiom, last thing done
            }
        };
        try (Demultiplexor demux = Demultiplexor.open(config).start(); SocketPair pair = new SocketPair(demux, h)) {
            pair.server.read(ByteBuffer.allocate(8), 0);
            pair.send(4);
            for (int i = 0; i < GUARD_SECONDS * 100 && served.getCount() == 2; i++) {
                Thread.sleep(10); // hang guard: the second send must not join the first read
            }
            pair.server.read(ByteBuffer.allocate(8), 1);
            pair.send(4);
            await(served, "both reads served");
            String prefix = demux.toString().substring(0, demux.toString().indexOf('[')) + "-";
            boolean interrupted = true;
            for (int i = 0; i < 1000 && interrupted; i++) { // hang guard only: an idle pool must clear it
                interrupted = false;
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    interrupted |= t.getName().startsWith(prefix) && t.isInterrupted();
                }
                if (interrupted) {
                    Thread.sleep(10);
                }
            }
            assertFalse(interrupted, "a pool thread kept its interrupt status (its waits would return at once)");
            assertEquals(config.threads(), demux.getLivePoolThreads());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aHandlerThrowingAnErrorClosesItsChannelOnlyAndThePoolSurvives(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReadRecorder failing = new ReadRecorder(1) {
            @Override
            protected void onRead(OpRead op) {
                throw new StackOverflowError("injected");
            }
        };
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             SocketPair bad = new SocketPair(demux, failing)) {
            for (int i = 0; i < config.threads() + 1; i++) { // more failures than pool threads
                bad.server.read(ByteBuffer.allocate(8), i);
            }
            bad.send(4);
            await(failing.done, "the failing callback ran");
            ReadRecorder good = new ReadRecorder(1);
            try (SocketPair ok = new SocketPair(demux, good)) {
                ok.server.read(ByteBuffer.allocate(8), "ok");
                ok.send(4);
                await(good.done, "another channel is still served");
            }
            for (int i = 0; i < 6000 && bad.server.isOpen(); i++) {
                Thread.sleep(10);
            }
            assertFalse(bad.server.isOpen(), "the failing handler's channel stayed open");
            assertEquals(config.threads(), demux.getLivePoolThreads(), "a pool thread died");
            assertFalse(demux.isClosed());
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void closedChannelsReleaseTheirDescriptorsWhileTheDemultiplexorIsQuiet(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
        assumeTrue(java.nio.file.Files.isDirectory(fds), "needs /proc/self/fd");
        ReadRecorder h = new ReadRecorder(0);
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            new SocketPair(demux, h).close(); // warm-up: lazily created JDK resources are not leaks
            long before = countFds(fds);
            SocketPair[] pairs = new SocketPair[20];
            for (int i = 0; i < pairs.length; i++) {
                pairs[i] = new SocketPair(demux, h); // idle: closing them completes nothing that would wake a leader
            }
            for (SocketPair p : pairs) {
                p.close();
            }
            long after = countFds(fds);
            for (int i = 0; i < 1000 && after > before; i++) { // hang guard only: nothing else will wake the leader
                Thread.sleep(10);
                after = countFds(fds);
            }
            assertTrue(after <= before, "descriptors of closed channels stay open on a quiet demultiplexor: "
                    + before + " before, " + after + " after");
        }
    }

    private static long countFds(java.nio.file.Path fds) throws IOException {
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(fds)) {
            return s.count();
        }
    }

    // ------------------------------------------------------------------------------------ misuse

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void misuseVisibleAtTheCallThrowsThere(ProactorConfig config) throws Exception {
        ConformanceMatrix.assumeAvailable(config);
        ReadRecorder h = new ReadRecorder(0);
        try (Demultiplexor demux = Demultiplexor.open(config).start(); SocketPair pair = new SocketPair(demux, h);
             Socket unused = new Socket()) {
            AsynchChannel listener = AsynchChannel.openServer(demux, h,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            assertThrows(UnsupportedOperationException.class, pair.server::accept);
            assertThrows(UnsupportedOperationException.class, () -> listener.read(ByteBuffer.allocate(1)));
            assertThrows(UnsupportedOperationException.class, () -> listener.write(ByteBuffer.allocate(1)));
            assertThrows(UnsupportedOperationException.class, () -> listener.connect(pair.client.getLocalAddress()));
            assertThrows(UnsupportedOperationException.class, () -> pair.server.receive(ByteBuffer.allocate(1)));
            assertNotNull(unused);
            listener.close();
        }
    }

    /** Records the thread of every write callback; {@link #afterWrite} lets a test start the next operation. */
    private static class WriteThreads implements AsynchHandler {
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch written;

        WriteThreads(int writes) {
            written = new CountDownLatch(writes);
        }

        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            threads.add(Thread.currentThread());
            written.countDown();
            afterWrite(threads.size());
        }

        /** Called in the callback after the count of completed writes became {@code count}. */
        void afterWrite(int count) {
        }
    }
}
