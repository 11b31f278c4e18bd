package dev.proactor.internal;

import static dev.proactor.Internals.core;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.NotifyLevel;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checks the dispatcher's leader/follower loop ({@link Dispatcher#handleEvents}, leadership pass-on, posts
 * and their wake-ups): user threads in {@code handleEvents}, posts of timers with {@link NotifyLevel#FOLLOWER}
 * and {@link NotifyLevel#STRONG}, and engine completions of two parked reads, from three threads.
 *
 * <p>Checked in every explored interleaving: a thread never leads once its {@code handleEvents} returned and
 * never believes it is still in the loop; after every thread finished nobody leads or follows, one final drain
 * dispatches everything left, every posted timer and every completed read is dispatched exactly once, and the
 * {@code handleEvents} return values add up to that count (no completion lost or counted twice).
 *
 * <p>Lost wake-ups and a leadership that is not passed on show up as a hang, which Lincheck reports with the
 * interleaving: the hand-written scenarios have one thread in {@code handleEvents} without timeout and make sure
 * that some completion arrives after every other thread stopped dispatching, so that thread must get it.
 *
 * <p>Lincheck's model checker treats a timed park as one that only ends when unparked, so positive timeouts
 * cannot be model checked (a timeout that really expires would look like a hang); they are run in Lincheck's
 * stress mode instead ({@link #stressWithShortTimeouts()}).
 */
// The class is public in an exported package of the module the tests are compiled into; JUnit is on the class path.
@SuppressWarnings("exports")
@Tag("model-check")
public class DispatcherModelCheckTest {

    private static final int TIMERS = 16;

    private final Demultiplexor demux;
    private final ScriptedEngine engine;
    private final Processor processor;
    private final AsynchChannel[] channels = new AsynchChannel[2];
    private final ScriptedChannel[] engineChannels = new ScriptedChannel[2];
    private final OpTimer[] timers = new OpTimer[TIMERS];

    private final AtomicInteger nextTimer = new AtomicInteger();
    /** Per channel: 1 once the engine completed its read. */
    private final AtomicIntegerArray readsCompleted = new AtomicIntegerArray(2);
    private final AtomicIntegerArray readsDispatched = new AtomicIntegerArray(2);
    private final AtomicIntegerArray timersDispatched = new AtomicIntegerArray(TIMERS);
    /** Sum of what every handleEvents call returned. */
    private final AtomicInteger returned = new AtomicInteger();

    public DispatcherModelCheckTest() {
        demux = ModelChecking.openScripted(0);
        try {
            for (int i = 0; i < 2; i++) {
                int channel = i;
                channels[i] = AsynchChannel.openSocket(demux, new AsynchHandler() {
                    @Override
                    public void onReadCompleted(OpRead op) {
                        readsDispatched.incrementAndGet(channel);
                    }

                    @Override
                    public void onWriteCompleted(OpWrite op) {
                    }
                });
                engineChannels[i] = ModelChecking.engineChannel(channels[i]);
                channels[i].read(ByteBuffer.allocate(1)); // parked in the engine
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        processor = ModelChecking.processor(channels[0]);
        engine = ModelChecking.engine(channels[0]);
        for (int i = 0; i < TIMERS; i++) {
            int timer = i;
            timers[i] = demux.newTimer(new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                }

                @Override
                public void onTimerCompleted(OpTimer op) {
                    timersDispatched.incrementAndGet(timer);
                }
            });
        }
    }

    private int handleEvents(long timeoutMillis) {
        int n = demux.handleEvents(timeoutMillis, TimeUnit.MILLISECONDS);
        returned.addAndGet(n);
        if (ModelChecking.leader(processor) == Thread.currentThread()) {
            throw new AssertionError("the thread still leads after handleEvents returned");
        }
        if (core(demux).dispatcher().isDispatcherThread()) {
            throw new AssertionError("the thread still counts as inside the loop after handleEvents returned");
        }
        return n;
    }

    @Operation
    public void handleEvents() {
        handleEvents(0);
    }

    /** Not an operation (it may legitimately wait for ever): only in the hand-written scenarios. */
    public void handleEventsUntilOne() {
        if (handleEvents(-1) < 1) {
            throw new AssertionError("handleEvents without timeout returned without dispatching");
        }
    }

    /** Not an operation: for the stress run only. */
    public void handleEventsShortTimeout() {
        handleEvents(1);
    }

    @Operation
    public void postStrong() {
        demux.post(timers[nextTimer.getAndIncrement()], NotifyLevel.STRONG);
    }

    @Operation
    public void postFollower() {
        demux.post(timers[nextTimer.getAndIncrement()], NotifyLevel.FOLLOWER);
    }

    @Operation
    public void complete0() {
        complete(0);
    }

    @Operation
    public void complete1() {
        complete(1);
    }

    private void complete(int channel) {
        if (engine.complete(engineChannels[channel], true, 1)) {
            readsCompleted.set(channel, 1);
        }
    }

    @Validate
    public void drainAndCheck() {
        if (ModelChecking.leader(processor) != null) {
            throw new AssertionError("a thread still leads after every thread left");
        }
        int[] counts = ModelChecking.followerCounts(core(demux).dispatcher());
        if (counts[0] != 0 || counts[1] != 0) {
            throw new AssertionError("followers " + counts[0] + ", pending wake-ups " + counts[1]
                    + " after every thread left");
        }
        while (handleEvents(0) > 0) {
            // until a call dispatches nothing
        }
        int expected = 0;
        for (int i = 0; i < 2; i++) {
            expected += readsCompleted.get(i);
            if (readsDispatched.get(i) != readsCompleted.get(i)) {
                throw new AssertionError("read of channel " + i + " completed " + readsCompleted.get(i)
                        + " times in the engine, dispatched " + readsDispatched.get(i) + " times");
            }
        }
        int posted = Math.min(nextTimer.get(), TIMERS);
        expected += posted;
        for (int t = 0; t < TIMERS; t++) {
            int want = t < posted ? 1 : 0;
            if (timersDispatched.get(t) != want) {
                throw new AssertionError("timer " + t + " dispatched " + timersDispatched.get(t) + " times, expected "
                        + want);
            }
        }
        if (returned.get() != expected) {
            throw new AssertionError("handleEvents calls returned " + returned.get() + " in all, " + expected
                    + " completions were dispatched");
        }
    }

    @Test
    void modelCheck() {
        ModelCheckingOptions options = ModelChecking.options(20, 100)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(0);
        Class<?> c = getClass();
        // One thread waits without timeout; in each scenario some completion is produced after every other
        // thread's last handleEvents returned, so that thread must be woken to dispatch it (else: hang).
        options.addCustomScenario(ModelChecking.scenario(c, List.of(),
                List.of(List.of("handleEventsUntilOne"), List.of("postStrong"))));
        options.addCustomScenario(ModelChecking.scenario(c, List.of(),
                List.of(List.of("handleEventsUntilOne"), List.of("complete0"))));
        // leadership hand-off: another thread leads and leaves while the first one follows; only a new leader
        // sees the engine completion
        options.addCustomScenario(ModelChecking.scenario(c, List.of(),
                List.of(List.of("handleEventsUntilOne"), List.of("handleEvents", "complete0"))));
        // the same with a second thread that dispatches what it finds, and a STRONG post
        options.addCustomScenario(ModelChecking.scenario(c, List.of(),
                List.of(List.of("handleEventsUntilOne"), List.of("handleEvents", "complete0"),
                        List.of("handleEvents", "postStrong"))));
        // a FOLLOWER post wakes a sleeping follower only; the engine completion after it wakes a leader
        options.addCustomScenario(ModelChecking.scenario(c, List.of(),
                List.of(List.of("handleEventsUntilOne"), List.of("postFollower", "complete0"),
                        List.of("handleEvents", "complete1"))));
        ModelChecking.check(options, c);
    }

    @Test
    void stressWithShortTimeouts() {
        Class<?> c = getClass();
        new StressOptions()
                .iterations(0)
                .invocationsPerIteration(1000)
                .verifier(ModelChecking.NoExceptionVerifier.class)
                .addCustomScenario(ModelChecking.scenario(c, List.of(),
                        List.of(List.of("handleEventsShortTimeout", "handleEventsShortTimeout"),
                                List.of("handleEventsShortTimeout", "postFollower"),
                                List.of("complete0", "postStrong", "handleEventsShortTimeout"))))
                .check(c);
    }
}
