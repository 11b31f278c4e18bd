package dev.proactor;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Every setting of a {@link Demultiplexor}, read in one place. Build one with {@link #builder()}, or take the
 * system properties with {@link #fromSystemProperties()} (what {@link Demultiplexor#open()} does):
 *
 * <table>
 * <caption>System properties</caption>
 * <tr><th>property</th><th>values</th><th>default</th></tr>
 * <tr><td>{@code proactor.engine}</td><td>an engine name ({@code nio}, {@code epoll}, ...)</td><td>nio</td></tr>
 * <tr><td>{@code proactor.waitStrategy}</td><td>one of the engine's strategies</td><td>the engine's first</td></tr>
 * <tr><td>{@code proactor.threads}</td><td>positive integer: pool threads started by {@code start()}</td>
 *     <td>available processors</td></tr>
 * <tr><td>{@code proactor.leader}</td><td>{@code shared} | {@code dedicated}</td><td>shared</td></tr>
 * <tr><td>{@code proactor.maxInFlight}</td><td>integer &ge; 0; 0 = no limit</td><td>0</td></tr>
 * <tr><td>{@code proactor.strict}</td><td>{@code true} | {@code false}: fail instead of falling back to
 *     {@code nio} when the engine cannot load</td><td>false</td></tr>
 * </table>
 *
 * <p>{@code maxInFlight} counts every operation in an engine, also a read waiting for a peer that may never
 * send: operations beyond the limit wait (state {@link OpState#DEFERRED}) until one finishes. Set it above the
 * number of operations that can wait indefinitely (e.g. one read per idle connection), or leave it at 0; it is
 * meant for engines with a bounded submission resource.
 *
 * <p>A wrong value is an {@link IllegalArgumentException} naming the property and the allowed values. Engine
 * and wait strategy names are checked against the engines found when the demultiplexor opens.
 *
 * @param engine       engine name
 * @param waitStrategy wait strategy name, or {@code null} for the engine's default
 * @param threads      pool threads started by {@link Demultiplexor#start()}
 * @param leader       shared or dedicated leader
 * @param maxInFlight  operations in flight per processor, 0 for no limit
 * @param strict       fail rather than fall back when the engine is unavailable
 */
public record ProactorConfig(String engine, String waitStrategy, int threads, LeaderMode leader, int maxInFlight,
                             boolean strict) {

    public static final String ENGINE = "proactor.engine";
    public static final String WAIT_STRATEGY = "proactor.waitStrategy";
    public static final String THREADS = "proactor.threads";
    public static final String LEADER = "proactor.leader";
    public static final String MAX_IN_FLIGHT = "proactor.maxInFlight";
    public static final String STRICT = "proactor.strict";

    /** The engine used when none is configured, and the fallback for engines that cannot load. */
    public static final String DEFAULT_ENGINE = "nio";

    public ProactorConfig {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(leader, "leader");
        if (engine.isBlank()) {
            throw new IllegalArgumentException(ENGINE + " must not be empty");
        }
        if (threads < 1) {
            throw new IllegalArgumentException(THREADS + " must be a positive integer, was " + threads);
        }
        if (maxInFlight < 0) {
            throw new IllegalArgumentException(MAX_IN_FLIGHT + " must be >= 0 (0 = no limit), was " + maxInFlight);
        }
    }

    /** Settings from the system properties, defaults where a property is absent. */
    public static ProactorConfig fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /** Settings from {@code props}, defaults where a property is absent. */
    public static ProactorConfig fromProperties(Properties props) {
        Builder b = builder();
        String v = props.getProperty(ENGINE);
        if (v != null) {
            b.engine(v.trim());
        }
        v = props.getProperty(WAIT_STRATEGY);
        if (v != null) {
            b.waitStrategy(v.trim());
        }
        v = props.getProperty(THREADS);
        if (v != null) {
            b.threads(parseInt(THREADS, v, "a positive integer"));
        }
        v = props.getProperty(LEADER);
        if (v != null) {
            b.leader(parseLeader(v));
        }
        v = props.getProperty(MAX_IN_FLIGHT);
        if (v != null) {
            b.maxInFlight(parseInt(MAX_IN_FLIGHT, v, "an integer >= 0 (0 = no limit)"));
        }
        v = props.getProperty(STRICT);
        if (v != null) {
            b.strict(parseBoolean(STRICT, v));
        }
        return b.build();
    }

    /** Parses a leader mode name ({@code shared}, {@code dedicated}, any case). */
    public static LeaderMode parseLeader(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (LeaderMode m : LeaderMode.values()) {
            if (m.configName().equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(LEADER + " must be one of " + Arrays.stream(LeaderMode.values())
                .map(LeaderMode::configName).collect(Collectors.joining(", ")) + "; was '" + value + "'");
    }

    private static int parseInt(String property, String value, String what) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be " + what + "; was '" + value + "'", e);
        }
    }

    private static boolean parseBoolean(String property, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException(property + " must be one of true, false; was '" + value + "'");
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder().engine(engine).waitStrategy(waitStrategy).threads(threads).leader(leader)
                .maxInFlight(maxInFlight).strict(strict);
    }

    /** Builder of {@link ProactorConfig}; {@link #build()} validates. */
    public static final class Builder {
        private String engine = DEFAULT_ENGINE;
        private String waitStrategy;
        private int threads = Runtime.getRuntime().availableProcessors();
        private LeaderMode leader = LeaderMode.SHARED;
        private int maxInFlight;
        private boolean strict;

        private Builder() {
        }

        public Builder engine(String engine) {
            this.engine = engine;
            return this;
        }

        /** The wait strategy, or {@code null} for the engine's default. */
        public Builder waitStrategy(String waitStrategy) {
            this.waitStrategy = waitStrategy == null || waitStrategy.isBlank() ? null : waitStrategy;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder leader(LeaderMode leader) {
            this.leader = leader;
            return this;
        }

        public Builder maxInFlight(int maxInFlight) {
            this.maxInFlight = maxInFlight;
            return this;
        }

        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        public ProactorConfig build() {
            return new ProactorConfig(engine, waitStrategy, threads, leader, maxInFlight, strict);
        }
    }
}
