package dev.proactor.conformance;

import static dev.proactor.conformance.Nio2Fixture.get;
import static dev.proactor.conformance.Nio2Fixture.writeFully;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a thread waits in {@link Future#get()} of a socket operation (read, write, accept): it parks, holding no
 * monitor and not in {@link Object#wait()}, so a virtual thread waiting there leaves its carrier to others on
 * JDK 21-23 too (where a monitor pins the carrier: {@code synchronized} around a park or {@code Object.wait}).
 * Run on the JDK's provider (the reference: its futures park on a latch) and ours.
 *
 * <p>{@link #threadsWaitingInSocketFuturesParkHoldingNoMonitor} runs on the callers of {@link Callers}: platform
 * threads in the default build (where the held monitors can be read), virtual threads in the forked JDK 21+ run of
 * {@link VirtualThreadFork} with one carrier, where
 * {@link #virtualThreadsWaitingInSocketFuturesLeaveTheCarrierToOthers} runs too. What each can show: the first
 * fails wherever a wait uses {@code Object.wait} or holds a monitor, on any JDK; the second fails wherever a wait
 * keeps the carrier (spins, blocks in native code, or, on JDK 21-23 only, waits on a monitor), since a carrier pool
 * of one cannot compensate. On JDK 24+ monitors no longer pin, so there the first is the one that catches a
 * {@code synchronized} wait. Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2FutureWaitConformanceTest {

    /** Row {@code NIO2_FUTURE_WAIT} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_FUTURE_WAIT, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(Outcome.GUARD_SECONDS);

    private static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "hang guard: " + what + " never happened");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static boolean waiting(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    /** A caller thread that waits in {@code get()} (or the timed {@code get}) of {@code future}. */
    private static Thread waiter(Future<?> future, boolean timed, List<Throwable> failures) {
        return Callers.start(() -> {
            try {
                if (timed) {
                    future.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS);
                } else {
                    future.get();
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
    }

    /**
     * Asserts that {@code t} is parked ({@link LockSupport}) and neither in {@link Object#wait()} nor (where the
     * JVM tells: platform threads) holding a monitor: the states that pin a virtual thread's carrier on JDK 21-23.
     */
    private static void assertParkedHoldingNoMonitor(Thread t, String what) {
        StackTraceElement[] stack = t.getStackTrace();
        String trace = Arrays.toString(stack);
        assertTrue(waiting(t), () -> what + " left its wait early: " + t.getState() + " " + trace);
        for (StackTraceElement e : stack) {
            assertTrue(!(e.getClassName().equals("java.lang.Object") && e.getMethodName().startsWith("wait")),
                    () -> what + " waits in Object.wait (pins a virtual thread's carrier on JDK 21-23): " + trace);
        }
        assertTrue(Arrays.stream(stack).anyMatch(e -> e.getClassName().equals(LockSupport.class.getName())
                && e.getMethodName().startsWith("park")), () -> what + " does not park: " + trace);
        if (!Callers.isVirtual(t)) {
            String[] held = HeldMonitors.of(t);
            assertEquals(0, held.length, () -> what + " holds monitors while parked: " + Arrays.toString(held)
                    + " " + trace);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void threadsWaitingInSocketFuturesParkHoldingNoMonitor(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            Nio2Fixture.Pair p = f.pair(f.fixedGroup(2, "fixed"));
            ByteBuffer in = ByteBuffer.allocate(4);
            Future<Integer> read = p.accepted().read(in);
            Future<Integer> write = AbstractNio2ChannelConformanceTest.fillUntilAWriteStaysPending(p.accepted());
            Future<AsynchronousSocketChannel> accept = p.server().accept();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> waiters = new ArrayList<>();
            for (Future<?> future : List.of(read, write, accept)) {
                waiters.add(waiter(future, false, failures));
                waiters.add(waiter(future, true, failures));
            }
            for (Thread t : waiters) {
                waitUntil(() -> waiting(t) || !t.isAlive(), "a waiter parking");
            }
            for (int i = 0; i < waiters.size(); i++) {
                assertParkedHoldingNoMonitor(waiters.get(i), "waiter " + i + " (" + Callers.kind() + ")");
            }
            // Complete all three: every waiter returns.
            writeFully(p.client(), ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            // Drain to the end of the stream, not "until the write is done": the write's completion may be reported
            // after its last bytes were read, which would leave a read waiting for bytes that never come.
            Future<Long> drained = AbstractNio2ChannelConformanceTest.drainUntilEndOfStream(p.client());
            get(write);
            p.accepted().shutdownOutput();
            assertTrue(get(drained) > 0);
            try (Socket other = new Socket()) {
                other.connect(p.server().getLocalAddress());
                f.track(get(accept));
            }
            for (Thread t : waiters) {
                t.join(TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS));
                assertTrue(!t.isAlive(), "hang guard: a waiter never returned");
            }
            assertTrue(failures.isEmpty(), () -> "a waiter failed: " + failures);
            assertTrue(get(read) > 0);
            assertTrue(get(write) > 0);
        }
    }

    /**
     * With one carrier (the forked run), virtual threads that start socket reads and wait in their futures, and one
     * in an accept future, leave the carrier free: a ticking virtual thread goes on while they wait. Then two
     * futures are cancelled (their waiters get {@link CancellationException}), the data arrives for the others and
     * a connection for the accept, and every waiter completes.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void virtualThreadsWaitingInSocketFuturesLeaveTheCarrierToOthers(Nio2Target target) throws Exception {
        assumeTrue(Callers.virtual(), "virtual callers only: the forked JDK 21+ run with one carrier");
        int readers = 8;
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(2, "fixed");
            AsynchronousServerSocketChannel server = f.server(g);
            List<Nio2Fixture.Pair> pairs = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                pairs.add(f.pair(g, server));
            }
            AtomicReferenceArray<Future<Integer>> futures = new AtomicReferenceArray<>(readers);
            AtomicReferenceArray<Object> outcomes = new AtomicReferenceArray<>(readers);
            ByteBuffer[] buffers = new ByteBuffer[readers];
            CountDownLatch done = new CountDownLatch(readers + 1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                int me = i;
                buffers[i] = ByteBuffer.allocate(4);
                threads.add(Callers.startVirtual(() -> {
                    try {
                        Future<Integer> r = pairs.get(me).accepted().read(buffers[me]);
                        futures.set(me, r);
                        outcomes.set(me, me % 2 == 0 ? r.get() : r.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS));
                    } catch (Throwable e) {
                        outcomes.set(me, e);
                    } finally {
                        done.countDown();
                    }
                }));
            }
            AtomicReference<Object> accepted = new AtomicReference<>();
            Future<AsynchronousSocketChannel> accept = server.accept();
            threads.add(Callers.startVirtual(() -> {
                try {
                    accepted.set(accept.get());
                } catch (Throwable e) {
                    accepted.set(e);
                } finally {
                    done.countDown();
                }
            }));
            for (Thread t : threads) {
                waitUntil(() -> waiting(t), "a virtual waiter parking (or its carrier is pinned)");
            }
            AtomicLong ticks = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            Thread ticker = Callers.startVirtual(() -> {
                while (!stop.get()) {
                    ticks.incrementAndGet();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            });
            waitUntil(() -> ticks.get() >= 20, "the ticker making progress while the waiters wait (pinned carrier?)");
            assertEquals(readers + 1, done.getCount(), "no waiter returned before its future completed");
            assertTrue(futures.get(0).cancel(false));
            assertTrue(futures.get(1).cancel(false));
            for (int i = 2; i < readers; i++) {
                writeFully(pairs.get(i).client(), ByteBuffer.wrap(new byte[] {(byte) i}));
            }
            try (Socket other = new Socket()) {
                other.connect(server.getLocalAddress());
                assertTrue(done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: waiters never returned");
            }
            long before = ticks.get();
            waitUntil(() -> ticks.get() > before, "the ticker still ticking");
            stop.set(true);
            ticker.join(TimeUnit.SECONDS.toMillis(Outcome.GUARD_SECONDS));
            assertInstanceOf(CancellationException.class, outcomes.get(0));
            assertInstanceOf(CancellationException.class, outcomes.get(1));
            for (int i = 2; i < readers; i++) {
                assertEquals(1, outcomes.get(i), "reader " + i);
                assertArrayEquals(new byte[] {(byte) i}, Arrays.copyOf(buffers[i].array(), 1), "reader " + i);
            }
            assertInstanceOf(AsynchronousSocketChannel.class, accepted.get());
            f.track((AsynchronousSocketChannel) accepted.get());
        }
    }
}
