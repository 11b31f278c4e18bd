package dev.proactor.conformance;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The engines on the class path (lookup, skip when unavailable) and the matrix of one engine: each of its wait
 * strategies x {1, 2, 4} threads x {shared, dedicated} leader, and x 1 thread with the owner leader (meant for one
 * thread; the full matrix adds a second, which only dispatches), or its cross-section. Which suite runs which of
 * these is {@link ConfigurationTable}'s decision.
 */
public final class ConformanceMatrix {

    private static final int[] THREADS = {1, 2, 4};
    private static final String FULL_MATRIX = "proactor.conformance.fullMatrix";
    /** Owner mode with one thread, its purpose; with two (the second only dispatches) in the full matrix. */
    private static final int[] OWNER_THREADS = {1};
    private static final int[] OWNER_THREADS_FULL = {1, 2};
    private static final LeaderMode[] POOL_MODES = {LeaderMode.SHARED, LeaderMode.DEDICATED};

    private ConformanceMatrix() {
    }

    /** The provider of {@code engine}; fails the test run if it is not on the class path at all. */
    public static EngineProvider provider(String engine) {
        for (EngineProvider p : ServiceLoader.load(EngineProvider.class)) {
            if (p.name().equals(engine)) {
                return p;
            }
        }
        throw new IllegalStateException("no engine provider named '" + engine + "' on the class path");
    }

    /** Skips the calling test, with the cause, when the engine of {@code config} is unavailable on this machine. */
    public static void assumeAvailable(ProactorConfig config) {
        EngineProvider p = provider(config.engine());
        Assumptions.assumeTrue(p.isAvailable(),
                () -> "engine " + config.engine() + " unavailable: " + p.unavailabilityCause());
    }

    /**
     * Half the matrix, for suites whose code does not depend on the thread and leader settings as much (or that
     * are long): every wait strategy with every thread count once, the shared and dedicated leader alternating,
     * and the owner leader with one thread, so each wait strategy, thread count and leader mode is still covered.
     * {@code -Dproactor.conformance.fullMatrix=true} (the {@code full-matrix} Maven profile) returns the whole
     * matrix instead.
     */
    static Stream<ProactorConfig> crossSection(String engine) {
        if (Boolean.getBoolean(FULL_MATRIX)) {
            return of(engine);
        }
        List<ProactorConfig> half = new ArrayList<>();
        int pair = 0;
        for (String ws : strategies(engine)) {
            for (int t : THREADS) {
                half.add(config(engine, ws, t, POOL_MODES[pair++ % 2]));
            }
            half.add(config(engine, ws, 1, LeaderMode.OWNER));
        }
        return half.stream();
    }

    /**
     * A few of the matrix, for a quick run: each wait strategy once with a shared leader (thread counts 1, 2, 4 in
     * turn), and on the first wait strategy a dedicated leader with 2 threads and the owner leader with 1, so each
     * wait strategy and leader mode still runs.
     */
    static Stream<ProactorConfig> few(String engine) {
        List<ProactorConfig> few = new ArrayList<>();
        List<String> strategies = strategies(engine);
        for (int i = 0; i < strategies.size(); i++) {
            few.add(config(engine, strategies.get(i), THREADS[i % THREADS.length], LeaderMode.SHARED));
        }
        few.add(config(engine, strategies.get(0), 2, LeaderMode.DEDICATED));
        few.add(config(engine, strategies.get(0), 1, LeaderMode.OWNER));
        return few.stream();
    }

    /** Every configuration of the matrix for {@code engine} (strict: never a silent fallback). */
    static Stream<ProactorConfig> of(String engine) {
        List<ProactorConfig> all = new ArrayList<>();
        for (String ws : strategies(engine)) {
            for (int t : THREADS) {
                for (LeaderMode m : POOL_MODES) {
                    all.add(config(engine, ws, t, m));
                }
            }
            for (int t : Boolean.getBoolean(FULL_MATRIX) ? OWNER_THREADS_FULL : OWNER_THREADS) {
                all.add(config(engine, ws, t, LeaderMode.OWNER));
            }
        }
        return all.stream();
    }

    /** The engine's wait strategies; null (one entry) where it is unavailable, so its tests report why. */
    private static List<String> strategies(String engine) {
        EngineProvider p = provider(engine);
        return p.isAvailable() ? p.waitStrategies() : java.util.Collections.singletonList(null);
    }

    private static ProactorConfig config(String engine, String waitStrategy, int threads, LeaderMode leader) {
        return ProactorConfig.builder().engine(engine).waitStrategy(waitStrategy).threads(threads).leader(leader)
                .strict(true).build();
    }
}
