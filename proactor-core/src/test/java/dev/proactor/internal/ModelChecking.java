package dev.proactor.internal;

import static dev.proactor.Internals.core;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.ExceptionResult;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * Shared pieces of the Lincheck model-checking tests ({@code *ModelCheckTest}).
 *
 * <p>The properties checked are not linearizability against a sequential specification: the operations return
 * nothing and check the rules themselves (an {@link AssertionError} inside an operation, or from the
 * {@code @Validate} function after the final drain, fails the test with the interleaving that led to it). So
 * the verifier only looks for exceptions in the results ({@link NoExceptionVerifier}).
 */
final class ModelChecking {

    private ModelChecking() {
    }

    /**
     * Model-checking options with the generated scenarios' budget ({@code -Dproactor.mc.scale=N} multiplies it,
     * for a deeper run by hand), results checked by {@link NoExceptionVerifier}.
     */
    static ModelCheckingOptions options(int iterations, int invocationsPerIteration) {
        int scale = Integer.getInteger("proactor.mc.scale", 1);
        return new ModelCheckingOptions()
                .iterations(iterations * scale)
                .invocationsPerIteration(invocationsPerIteration * scale)
                // ConcurrentHashMap (the demultiplexor's channel set) is trusted: a switch inside the iteration of
                // its table in Demultiplexor.close() makes Lincheck report "non-determinism" when it replays the
                // interleaving (its loop detector switches after 10 iterations).
                .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(
                        (String name) -> name.startsWith("java.util.concurrent.ConcurrentHashMap")).allMethods()
                        .treatAsAtomic())
                .verifier(NoExceptionVerifier.class);
    }

    /** A hand-written scenario of no-argument methods of {@code test} (operations or not). */
    static ExecutionScenario scenario(Class<?> test, List<String> init, List<List<String>> threads) {
        List<List<Actor>> parallel = new ArrayList<>();
        for (List<String> thread : threads) {
            parallel.add(actors(test, thread));
        }
        return new ExecutionScenario(actors(test, init), parallel, List.of(), null);
    }

    private static List<Actor> actors(Class<?> test, List<String> names) {
        List<Actor> actors = new ArrayList<>();
        for (String name : names) {
            try {
                actors.add(new Actor(test.getMethod(name), List.of()));
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(e);
            }
        }
        return actors;
    }

    /** Runs the check and prints how long it took (see the surefire output). */
    static void check(ModelCheckingOptions options, Class<?> test) {
        long start = System.nanoTime();
        options.check(test);
        System.out.println(test.getSimpleName() + ": model checking took " + (System.nanoTime() - start) / 1_000_000
                + " ms");
    }

    /**
     * Opens a demultiplexor on the scripted engine, not started (no pool: the test's threads drive it with
     * {@code handleEvents}), with at most {@code maxInFlight} operations in the engine (0: no limit).
     */
    static Demultiplexor openScripted(int maxInFlight) {
        try {
            return Demultiplexor.open(ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1)
                    .maxInFlight(maxInFlight).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The scripted engine running {@code ch}. */
    static ScriptedEngine engine(AsynchChannel ch) {
        return (ScriptedEngine) processor(ch).engine();
    }

    /** Accepts every execution in which no operation threw. */
    public static final class NoExceptionVerifier implements Verifier {

        public NoExceptionVerifier(Class<?> sequentialSpecification) {
        }

        @Override
        public boolean verifyResults(ExecutionScenario scenario, ExecutionResult results) {
            List<LincheckResult> all = new ArrayList<>(results.getInitResults());
            for (List<ResultWithClock> thread : results.getParallelResultsWithClock()) {
                for (ResultWithClock r : thread) {
                    all.add(r.getResult());
                }
            }
            all.addAll(results.getPostResults());
            for (LincheckResult r : all) {
                if (r instanceof ExceptionResult) {
                    return false;
                }
            }
            return true;
        }
    }

    // ---------------------------------------------------------------- private state, read by reflection

    private static final Field LEADER = declared(Processor.class, "leader");
    private static final Field FOLLOWERS = declared(Followers.class, "followers");
    private static final Field PENDING_WAKEUPS = declared(Followers.class, "pendingWakeups");

    private static Field declared(Class<?> c, String name) {
        try {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** The value of a private field of {@code o} (state that no method shows). */
    static Object field(Object o, String name) {
        try {
            return get(declared(o.getClass(), name), o);
        } catch (ExceptionInInitializerError e) {
            throw new AssertionError(e.getCause());
        }
    }

    static ScriptedChannel engineChannel(AsynchChannel ch) {
        return (ScriptedChannel) core(ch).engineChannel;
    }

    static Processor processor(AsynchChannel ch) {
        return core(ch).processor;
    }

    /** The thread leading {@code p}, or null. */
    static Thread leader(Processor p) {
        return (Thread) get(LEADER, p);
    }

    /** Followers asleep (or waking) in {@code d}, and wake-ups not yet consumed: both 0 when no thread is in it. */
    static int[] followerCounts(Dispatcher d) {
        d.lock();
        try {
            return new int[] {(Integer) get(FOLLOWERS, d.followers), (Integer) get(PENDING_WAKEUPS, d.followers)};
        } finally {
            d.unlock();
        }
    }
}
