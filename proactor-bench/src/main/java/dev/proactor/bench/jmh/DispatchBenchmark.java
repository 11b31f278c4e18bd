package dev.proactor.bench.jmh;

import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.NotifyLevel;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The dispatcher alone, without sockets: completions posted to a demultiplexor of 1, 2 or 4 pool threads on an
 * engine's wait strategy (the leader blocks in its wait, so a post must wake a follower or interrupt the leader).
 *
 * <ul>
 *   <li>{@code handOff}: one completion posted from a foreign thread until its callback ran (the latency of a
 *       hand-off into the pool);</li>
 *   <li>{@code burst}: {@value #BURST} completions posted from a foreign thread, until all were dispatched
 *       (dispatch throughput when the queue is deep; score per completion);</li>
 *   <li>{@code chain}: {@value #BURST} completions where each callback posts the next (completions made by a
 *       dispatcher thread, the "completed at start" path; score per completion).</li>
 * </ul>
 * The client side spins on a counter, so it allocates nothing; {@code -prof gc} shows the dispatcher's allocation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class DispatchBenchmark {

    static final int BURST = 1000;

    /** Pool threads. */
    @Param({"1", "2", "4"})
    public int threads;

    /** Engine whose wait strategy the leader blocks in. */
    @Param({"nio"})
    public String engine;

    private Demultiplexor demux;
    private final AtomicLong dispatched = new AtomicLong();
    private OpTimer[] timers;
    private OpTimer chainTimer;
    private final AtomicInteger chainLeft = new AtomicInteger();

    /** Opens the demultiplexor and the reusable timers. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        demux = Demultiplexor.open(ProactorConfig.builder().engine(engine).threads(threads).strict(true).build())
                .start();
        AsynchHandler counter = new TimerHandler() {
            @Override
            public void onTimerCompleted(OpTimer op) {
                dispatched.incrementAndGet();
            }
        };
        timers = new OpTimer[BURST];
        for (int i = 0; i < BURST; i++) {
            timers[i] = demux.newTimer(counter);
        }
        chainTimer = demux.newTimer(new TimerHandler() {
            @Override
            public void onTimerCompleted(OpTimer op) {
                // Count last: once the count is reached the next invocation may reset chainLeft and post the
                // timer, and this callback must not then post it a second time.
                if (chainLeft.decrementAndGet() > 0) {
                    demux.post(op, NotifyLevel.FOLLOWER); // from inside the pool
                }
                dispatched.incrementAndGet();
            }
        });
    }

    /** Closes the demultiplexor. */
    @TearDown(Level.Trial)
    public void tearDown() {
        demux.close();
    }

    private void awaitDispatched(long target) {
        while (dispatched.get() < target) {
            Thread.onSpinWait();
        }
    }

    /** One post from this (foreign) thread until its callback ran. */
    @Benchmark
    public void handOff() {
        long target = dispatched.get() + 1;
        demux.post(timers[0], NotifyLevel.STRONG);
        awaitDispatched(target);
    }

    /** A burst of posts from this thread until every one was dispatched. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public void burst() {
        long target = dispatched.get() + BURST;
        for (OpTimer t : timers) {
            demux.post(t, NotifyLevel.STRONG);
        }
        awaitDispatched(target);
    }

    /** A chain of completions each posted by the previous callback. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public void chain() {
        long target = dispatched.get() + BURST;
        chainLeft.set(BURST);
        demux.post(chainTimer, NotifyLevel.STRONG);
        awaitDispatched(target);
    }

    /** Handlers of this benchmark only get timer completions. */
    private abstract static class TimerHandler implements AsynchHandler {
        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("no reads here");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("no writes here");
        }
    }
}
