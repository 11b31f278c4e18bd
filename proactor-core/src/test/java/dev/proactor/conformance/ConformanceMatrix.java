package dev.proactor.conformance;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The settings every conformance test runs under for one engine: each of its wait strategies x {1, 2, 4}
 * threads x {shared, dedicated} leader. Engine modules call {@link #of(String)} from a static
 * {@code configurations()} method of their concrete test class.
 */
public final class ConformanceMatrix {

    private static final int[] THREADS = {1, 2, 4};

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

    /**
     * Half the matrix, for suites whose code does not depend on the thread and leader settings as much (or that
     * are long): every wait strategy with every thread count once, the leader mode alternating, so each wait
     * strategy, thread count and leader mode is still covered. {@code -Dproactor.conformance.fullMatrix=true}
     * (the {@code full-matrix} Maven profile) returns the whole matrix instead.
     */
    public static Stream<ProactorConfig> crossSection(String engine) {
        if (Boolean.getBoolean("proactor.conformance.fullMatrix")) {
            return of(engine);
        }
        List<ProactorConfig> all = of(engine).toList();
        List<ProactorConfig> half = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 2) {
            // all is ordered strategy, threads, leader (two modes): pick SHARED and DEDICATED in turn
            int pair = i / 2;
            half.add(all.get(i + (pair % 2)));
        }
        return half.stream();
    }

    /** Every configuration of the matrix for {@code engine} (strict: never a silent fallback). */
    public static Stream<ProactorConfig> of(String engine) {
        EngineProvider p = provider(engine);
        List<ProactorConfig> all = new ArrayList<>();
        List<String> strategies = p.isAvailable() ? p.waitStrategies() : List.of("unavailable");
        for (String ws : strategies) {
            for (int t : THREADS) {
                for (LeaderMode m : LeaderMode.values()) {
                    all.add(ProactorConfig.builder().engine(engine)
                            .waitStrategy(p.isAvailable() ? ws : null).threads(t).leader(m).strict(true).build());
                }
            }
        }
        return all.stream();
    }
}
