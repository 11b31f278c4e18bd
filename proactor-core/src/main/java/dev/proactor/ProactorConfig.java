package dev.proactor;

import java.util.Arrays;
import java.util.List;
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
 * <tr><td>{@code proactor.leader}</td><td>{@code shared} | {@code dedicated} | {@code owner} (see
 *     {@link LeaderMode})</td><td>shared</td></tr>
 * <tr><td>{@code proactor.maxInFlight}</td><td>integer &ge; 0; 0 = no limit</td><td>0</td></tr>
 * <tr><td>{@code proactor.strict}</td><td>{@code true} | {@code false}: fail instead of falling back to
 *     {@code nio} when the engine cannot load</td><td>false</td></tr>
 * <tr><td>{@code proactor.fileEngine}</td><td>{@code threadpool} | {@code none}: what runs file reads and writes
 *     when the engine cannot</td><td>threadpool</td></tr>
 * <tr><td>{@code proactor.fileThreads}</td><td>positive integer: worker threads of the {@code threadpool} file
 *     engine</td><td>2</td></tr>
 * <tr><td>{@code proactor.promptHandlers}</td><td>{@code true} | {@code false}: the handlers the pool threads
 *     run return promptly and never block (an event loop's contract), so an engine may leave work started by other
 *     threads to a pool thread's next wait instead of handing it to a thread of its own (io_uring)</td>
 *     <td>false</td></tr>
 * <tr><td>{@code proactor.dispatchStatistics}</td><td>{@code true} | {@code false}: record how long completions
 *     wait in the queue and how long the I/O goes unpolled ({@link Demultiplexor#getDispatchStatistics()})</td>
 *     <td>false</td></tr>
 * </table>
 *
 * <p>Files: a selector cannot wait for files, so when the engine does not run {@link
 * dev.proactor.spi.OpKind#READ_FILE file operations} itself (the {@code nio} engine does not), a second processor
 * runs them: with {@code threadpool}, positional {@code FileChannel} reads and writes on a small pool of
 * {@code fileThreads} workers, whose completions that processor's own dedicated leader queues for the pool. With
 * {@code none} there is no second processor and {@link AsynchChannel#openFile} throws
 * {@link UnsupportedOperationException}. An engine that supports file operations itself runs them, whatever
 * this setting.
 *
 * <p>Settings of the layers above the core are read by those layers, not here: {@code proactor.fileLanes} (most
 * operations one channel of {@link dev.proactor.nio2.ProactorFiles} keeps in the file engine at once) is read by
 * the NIO.2 file channels when they open, from the system properties, with the same default (128).
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
 * @param leader       shared, dedicated or owner leader
 * @param maxInFlight  operations in flight per processor, 0 for no limit
 * @param strict       fail rather than fall back when the engine is unavailable
 * @param fileEngine   {@value #FILE_ENGINE_THREADPOOL} or {@value #FILE_ENGINE_NONE}
 * @param fileThreads  worker threads of the {@value #FILE_ENGINE_THREADPOOL} file engine
 * @param dispatchStatistics record queue-wait and poll-gap histograms (costs two clock reads per completion)
 * @param promptHandlers the handlers run on the pool threads return promptly and never block (as an event loop's
 *                     must): a pool thread that led comes back to the engine soon after dispatching, so the io_uring
 *                     engine leaves requests started by other threads to it instead of waking its submitter thread.
 *                     A handler that blocks anyway delays those requests until it returns. The NIO.2 provider's
 *                     executor groups set it for their internal dispatching thread, which only hands completions on
 */
public record ProactorConfig(String engine, String waitStrategy, int threads, LeaderMode leader, int maxInFlight,
                             boolean strict, String fileEngine, int fileThreads, boolean dispatchStatistics,
                             boolean promptHandlers) {

    public static final String ENGINE = "proactor.engine";
    public static final String WAIT_STRATEGY = "proactor.waitStrategy";
    public static final String THREADS = "proactor.threads";
    public static final String LEADER = "proactor.leader";
    public static final String MAX_IN_FLIGHT = "proactor.maxInFlight";
    public static final String STRICT = "proactor.strict";
    public static final String FILE_ENGINE = "proactor.fileEngine";
    public static final String FILE_THREADS = "proactor.fileThreads";
    public static final String DISPATCH_STATISTICS = "proactor.dispatchStatistics";
    public static final String PROMPT_HANDLERS = "proactor.promptHandlers";

    /** {@code proactor.fileEngine} value: file operations on a pool of worker threads (the default). */
    public static final String FILE_ENGINE_THREADPOOL = "threadpool";
    /** {@code proactor.fileEngine} value: no file engine; opening a file fails unless the engine runs files. */
    public static final String FILE_ENGINE_NONE = "none";
    /** The allowed {@code proactor.fileEngine} values, default first. */
    public static final List<String> FILE_ENGINES = List.of(FILE_ENGINE_THREADPOOL, FILE_ENGINE_NONE);
    /** Default of {@code proactor.fileThreads}. */
    public static final int DEFAULT_FILE_THREADS = 2;

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
        Objects.requireNonNull(fileEngine, "fileEngine");
        if (!FILE_ENGINES.contains(fileEngine)) {
            throw new IllegalArgumentException(FILE_ENGINE + " must be one of " + String.join(", ", FILE_ENGINES)
                    + "; was '" + fileEngine + "'");
        }
        if (fileThreads < 1) {
            throw new IllegalArgumentException(FILE_THREADS + " must be a positive integer, was " + fileThreads);
        }
    }

    /**
     * The settings without the prompt-handlers promise (false), as before it existed.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public ProactorConfig(String engine, String waitStrategy, int threads, LeaderMode leader, int maxInFlight,
                          boolean strict, String fileEngine, int fileThreads, boolean dispatchStatistics) {
        this(engine, waitStrategy, threads, leader, maxInFlight, strict, fileEngine, fileThreads, dispatchStatistics,
                false);
    }

    /**
     * The settings without the statistics switch (off), as before it existed.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public ProactorConfig(String engine, String waitStrategy, int threads, LeaderMode leader, int maxInFlight,
                          boolean strict, String fileEngine, int fileThreads) {
        this(engine, waitStrategy, threads, leader, maxInFlight, strict, fileEngine, fileThreads, false, false);
    }

    /**
     * The settings without the file properties (which take their defaults), as before those existed.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public ProactorConfig(String engine, String waitStrategy, int threads, LeaderMode leader, int maxInFlight,
                          boolean strict) {
        this(engine, waitStrategy, threads, leader, maxInFlight, strict, FILE_ENGINE_THREADPOOL,
                DEFAULT_FILE_THREADS, false, false);
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
        v = props.getProperty(DISPATCH_STATISTICS);
        if (v != null) {
            b.dispatchStatistics(parseBoolean(DISPATCH_STATISTICS, v));
        }
        v = props.getProperty(STRICT);
        if (v != null) {
            b.strict(parseBoolean(STRICT, v));
        }
        v = props.getProperty(FILE_ENGINE);
        if (v != null) {
            b.fileEngine(v.trim().toLowerCase(Locale.ROOT));
        }
        v = props.getProperty(FILE_THREADS);
        if (v != null) {
            b.fileThreads(parseInt(FILE_THREADS, v, "a positive integer"));
        }
        v = props.getProperty(PROMPT_HANDLERS);
        if (v != null) {
            b.promptHandlers(parseBoolean(PROMPT_HANDLERS, v));
        }
        return b.build();
    }

    /** Parses a leader mode name ({@code shared}, {@code dedicated}, {@code owner}, any case). */
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
                .maxInFlight(maxInFlight).strict(strict).fileEngine(fileEngine).fileThreads(fileThreads)
                .dispatchStatistics(dispatchStatistics).promptHandlers(promptHandlers);
    }

    /** Builder of {@link ProactorConfig}; {@link #build()} validates. */
    public static final class Builder {
        private String engine = DEFAULT_ENGINE;
        private String waitStrategy;
        private int threads = Runtime.getRuntime().availableProcessors();
        private LeaderMode leader = LeaderMode.SHARED;
        private int maxInFlight;
        private boolean strict;
        private String fileEngine = FILE_ENGINE_THREADPOOL;
        private int fileThreads = DEFAULT_FILE_THREADS;
        private boolean dispatchStatistics;
        private boolean promptHandlers;

        private Builder() {
        }

        /** The pool threads' handlers return promptly and never block ({@link ProactorConfig#promptHandlers()}). */
        public Builder promptHandlers(boolean promptHandlers) {
            this.promptHandlers = promptHandlers;
            return this;
        }

        /** Record queue-wait and poll-gap histograms ({@link Demultiplexor#getDispatchStatistics()}). */
        public Builder dispatchStatistics(boolean on) {
            this.dispatchStatistics = on;
            return this;
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

        /** {@value ProactorConfig#FILE_ENGINE_THREADPOOL} or {@value ProactorConfig#FILE_ENGINE_NONE}. */
        public Builder fileEngine(String fileEngine) {
            this.fileEngine = fileEngine;
            return this;
        }

        /** Worker threads of the {@value ProactorConfig#FILE_ENGINE_THREADPOOL} file engine. */
        public Builder fileThreads(int fileThreads) {
            this.fileThreads = fileThreads;
            return this;
        }

        public ProactorConfig build() {
            return new ProactorConfig(engine, waitStrategy, threads, leader, maxInFlight, strict, fileEngine,
                    fileThreads, dispatchStatistics, promptHandlers);
        }
    }
}
