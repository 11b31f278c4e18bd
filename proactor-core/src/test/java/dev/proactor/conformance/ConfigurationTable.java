package dev.proactor.conformance;

import static dev.proactor.conformance.ConfigurationTable.Cover.EVERY;
import static dev.proactor.conformance.ConfigurationTable.Cover.FILE_ENGINE;
import static dev.proactor.conformance.ConfigurationTable.Cover.HALF;
import static dev.proactor.conformance.ConfigurationTable.Cover.JDK_AND_FILES;
import static dev.proactor.conformance.ConfigurationTable.Cover.JDK_AND_LEADERS;
import static dev.proactor.conformance.ConfigurationTable.Cover.JDK_AND_NAME;
import static dev.proactor.conformance.ConfigurationTable.Cover.LEADERS;
import static dev.proactor.conformance.ConfigurationTable.Cover.NAME;
import static dev.proactor.conformance.ConfigurationTable.Cover.NONE;
import static dev.proactor.conformance.ConfigurationTable.Cover.PAIR;
import static dev.proactor.conformance.ConfigurationTable.Cover.PAIR_WIDE;
import static dev.proactor.conformance.ConfigurationTable.Cover.SOAK;
import static dev.proactor.conformance.ConfigurationTable.Cover.SOAK_OWNER;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;

/**
 * The one place that decides which configurations each suite runs on each engine (engine x wait strategy x threads
 * x leader mode, and for the NIO.2 suites whether the JDK's provider runs beside ours as the reference). A suite's
 * abstract class asks the table from its {@code @MethodSource} factory; a concrete class only names its engine with
 * {@link EngineUnderTest}, and its module runs it (each engine's suites run in that engine's module). An engine
 * the machine cannot run still gets its rows, so its tests report why they are skipped.
 *
 * <p>Two tiers change the table's entries. {@code -Dproactor.conformance.fullMatrix=true} (the {@code full-matrix}
 * Maven profile) turns every {@code HALF} into {@code EVERY} and adds a second owner-mode thread to {@code EVERY}.
 * {@value #QUICK}{@code =true} (the {@code quick} Maven profile, a contributor's loop) runs a few configurations
 * in place of {@code EVERY} and {@code HALF} (each wait strategy and leader mode once, see
 * {@link ConformanceMatrix}) and only the shared leader in place of {@code LEADERS}.
 */
public final class ConfigurationTable {

    /** System property: the quick tier ({@code true}), fewer configurations per suite. */
    public static final String QUICK = "proactor.conformance.quick";

    /** The engines, in the order of the table's columns. */
    static final List<String> ENGINES = List.of("nio", "epoll", "io_uring", "linux-aio", "test-manual");

    /**
     * The suites (rows) and what each runs on each engine (columns, {@link #ENGINES}). A suite's abstract class names
     * its row in its factory method ({@code SOCKETS}: {@link AbstractConformanceTest}, {@code NIO2_CHANNEL}:
     * {@link AbstractNio2ChannelConformanceTest}, ...; {@code URING_SUBMISSION_RULES}: io_uring's own
     * {@code IoUringSubmissionRulesTest}). {@code NONE} where no class runs the suite on that engine: a class that
     * names such an engine fails, so a new engine class comes with its entry here.
     */
    public enum Suite {
        // suite                nio              epoll        io_uring     linux-aio    test-manual
        SOCKETS(                EVERY,           EVERY,       EVERY,       HALF,        NONE),
        SOCKETS_RING_ONLY(      NONE,            NONE,        HALF,        NONE,        NONE),
        BUFFERS(                HALF,            HALF,        HALF,        HALF,        NONE),
        DATAGRAMS(              EVERY,           EVERY,       EVERY,       HALF,        NONE),
        DISPATCH_RULES(         EVERY,           EVERY,       EVERY,       HALF,        NONE),
        CHAINED_CALLBACKS(      HALF,            HALF,        HALF,        HALF,        NONE),
        FILES(                  EVERY,           EVERY,       EVERY,       EVERY,       EVERY),
        TRANSMIT_FILE(          EVERY,           EVERY,       EVERY,       HALF,        NONE),
        TOOLKIT(                PAIR,            PAIR,        PAIR,        PAIR,        NONE),
        LISTEN_BACKLOG(         PAIR,            PAIR,        PAIR,        PAIR,        NONE),
        TIMEOUT_STATISTICS(     PAIR,            PAIR,        PAIR,        PAIR,        NONE),
        TLS(                    PAIR_WIDE,       PAIR_WIDE,   PAIR_WIDE,   PAIR_WIDE,   NONE),
        URING_SUBMISSION_RULES( NONE,            NONE,        EVERY,       NONE,        NONE),
        NIO2_CHANNEL(           JDK_AND_LEADERS, LEADERS,     LEADERS,     LEADERS,     NONE),
        NIO2_GROUP(             JDK_AND_LEADERS, LEADERS,     LEADERS,     LEADERS,     NONE),
        NIO2_HANDLER_THREADS(   JDK_AND_LEADERS, LEADERS,     LEADERS,     LEADERS,     NONE),
        NIO2_OPTION(            JDK_AND_LEADERS, LEADERS,     LEADERS,     LEADERS,     NONE),
        NIO2_WAITING_HANDLER(   JDK_AND_LEADERS, LEADERS,     LEADERS,     LEADERS,     NONE),
        NIO2_FUTURE_WAIT(       JDK_AND_LEADERS, NONE,        NONE,        NONE,        NONE),
        NIO2_SECURITY_MANAGER(  JDK_AND_NAME,    NAME,        NAME,        NAME,        NONE),
        FILE_CHANNEL(           JDK_AND_FILES,   NONE,        FILE_ENGINE, FILE_ENGINE, NONE),
        ASYNC_FILE_CHANNEL(     JDK_AND_FILES,   NONE,        FILE_ENGINE, FILE_ENGINE, NONE),
        SOAKS(                  SOAK,            SOAK,        SOAK_OWNER,  SOAK,        NONE);

        private final List<Cover> columns;

        Suite(Cover... columns) {
            this.columns = List.of(columns);
            if (columns.length != ENGINES.size()) {
                throw new IllegalStateException(name() + ": one entry per engine column, " + ENGINES);
            }
        }

        /** What this suite runs on {@code engine}; fails for an engine that is not a column. */
        public Cover on(String engine) {
            int column = ENGINES.indexOf(engine);
            if (column < 0) {
                throw new IllegalArgumentException("no column for engine '" + engine + "' in ConfigurationTable");
            }
            return columns.get(column);
        }
    }

    /** What a suite runs on one engine. Every configuration is strict: never a silent fallback to another engine. */
    public enum Cover {
        /** Not run on this engine. */
        NONE,
        /**
         * Each wait strategy x {1, 2, 4} threads x {shared, dedicated} leader, and 1 thread x owner leader (owner
         * mode is meant for one thread; the full matrix adds a second, which only dispatches).
         */
        EVERY,
        /**
         * The cross-section: each wait strategy with each thread count once, the shared and dedicated leader
         * alternating, and 1 thread x owner leader (each wait strategy, thread count and leader mode still covered).
         * For suites whose code depends less on these settings, or long ones; {@code EVERY} with the full matrix.
         */
        HALF,
        /** The engine's first wait strategy with 1 thread and a shared leader, and with 2 threads and a dedicated. */
        PAIR,
        /** The engine's default wait strategy with 2 threads and a shared leader, and with 4 and a dedicated one. */
        PAIR_WIDE,
        /** Our NIO.2 provider on the engine's default wait strategy, once per leader mode (quick tier: shared). */
        LEADERS,
        /** The JDK's provider (the reference), then {@code LEADERS}. */
        JDK_AND_LEADERS,
        /** Our file channels on the engine's file engine: default wait strategy, 2 threads, shared leader. */
        FILE_ENGINE,
        /** The JDK's file channels (the reference), then {@code FILE_ENGINE}. */
        JDK_AND_FILES,
        /** The engine's name only (a forked JVM selects it with {@code -Dproactor.engine}). */
        NAME,
        /** The JDK's provider (the reference), then {@code NAME}. */
        JDK_AND_NAME,
        /** One soak per leader mode, shared and dedicated ({@link SoakSettings#LEADERS} overrides the list). */
        SOAK,
        /** {@code SOAK} and the owner leader mode too. */
        SOAK_OWNER
    }

    private ConfigurationTable() {
    }

    /** The demultiplexor configurations of {@code suite} on the engine(s) of the test class of {@code test}. */
    public static Stream<ProactorConfig> configurations(Suite suite, TestInfo test) {
        return engines(test).flatMap(engine -> configurations(suite(suite, test), engine));
    }

    /** The demultiplexor configurations of {@code suite} on {@code engine}. */
    public static Stream<ProactorConfig> configurations(Suite suite, String engine) {
        Cover cover = suite.on(engine);
        if (quick() && (cover == EVERY || cover == HALF)) {
            return ConformanceMatrix.few(engine);
        }
        switch (cover) {
            case EVERY:
                return ConformanceMatrix.of(engine);
            case HALF:
                return ConformanceMatrix.crossSection(engine);
            case PAIR: {
                String ws = firstWaitStrategy(engine);
                return Stream.of(config(engine, ws, 1, LeaderMode.SHARED),
                        config(engine, ws, 2, LeaderMode.DEDICATED));
            }
            case PAIR_WIDE:
                return Stream.of(config(engine, null, 2, LeaderMode.SHARED),
                        config(engine, null, 4, LeaderMode.DEDICATED));
            default:
                throw notFor(suite, engine, cover, "demultiplexor configurations");
        }
    }

    /** The NIO.2 providers {@code suite} runs on for the test class of {@code test}. */
    public static Stream<Nio2Target> providers(Suite suite, TestInfo test) {
        return engines(test).flatMap(engine -> {
            Cover cover = suite(suite, test).on(engine);
            LeaderMode[] modes = quick() ? new LeaderMode[] {LeaderMode.SHARED} : LeaderMode.values();
            Stream<Nio2Target> ours = Stream.of(modes).map(mode -> new Nio2Target(
                    engine + "/" + mode.name().toLowerCase(Locale.ROOT),
                    ProactorConfig.builder().engine(engine).leader(mode).strict(true).build()));
            switch (cover) {
                case LEADERS:
                    return ours;
                case JDK_AND_LEADERS:
                    return Stream.concat(Stream.of(Nio2Target.jdk()), ours);
                default:
                    throw notFor(suite, engine, cover, "NIO.2 providers");
            }
        });
    }

    /** The file channels {@code suite} runs on for the test class of {@code test}. */
    public static Stream<Nio2FileTarget> fileChannels(Suite suite, TestInfo test) {
        return engines(test).flatMap(engine -> {
            Cover cover = suite(suite, test).on(engine);
            Nio2FileTarget ours = new Nio2FileTarget(engine,
                    ProactorConfig.builder().engine(engine).threads(2).strict(true).build());
            switch (cover) {
                case FILE_ENGINE:
                    return Stream.of(ours);
                case JDK_AND_FILES:
                    return Stream.of(Nio2FileTarget.jdk(), ours);
                default:
                    throw notFor(suite, engine, cover, "file channels");
            }
        });
    }

    /**
     * The engine names {@code suite} runs on for the test class of {@code test}
     * ({@link AbstractNio2SecurityManagerTest#JDK} names the JDK's provider).
     */
    public static List<String> engineNames(Suite suite, TestInfo test) {
        List<String> names = new ArrayList<>();
        engines(test).forEach(engine -> {
            Cover cover = suite(suite, test).on(engine);
            switch (cover) {
                case JDK_AND_NAME:
                    names.add(AbstractNio2SecurityManagerTest.JDK);
                    names.add(engine);
                    break;
                case NAME:
                    names.add(engine);
                    break;
                default:
                    throw notFor(suite, engine, cover, "engine names");
            }
        });
        return names;
    }

    /** The soak runs of the test class of {@code test} (their sizes come from {@link SoakSettings}' properties). */
    public static Stream<SoakSettings> soaks(Suite suite, TestInfo test) {
        return engines(test).flatMap(engine -> {
            Cover cover = suite(suite, test).on(engine);
            switch (cover) {
                case SOAK:
                    return SoakSettings.of(engine, "shared,dedicated");
                case SOAK_OWNER:
                    return SoakSettings.of(engine, "shared,dedicated,owner");
                default:
                    throw notFor(suite, engine, cover, "soak runs");
            }
        });
    }

    /** The engines named by the test class's {@link EngineUnderTest}. */
    private static Stream<String> engines(TestInfo test) {
        return Arrays.stream(annotation(test).value());
    }

    /** {@code declared}, or the variant the test class names in {@link EngineUnderTest#suite()}. */
    private static Suite suite(Suite declared, TestInfo test) {
        Suite[] variant = annotation(test).suite();
        return variant.length == 0 ? declared : variant[0];
    }

    private static EngineUnderTest annotation(TestInfo test) {
        Class<?> c = test.getTestClass().orElseThrow(() -> new IllegalStateException("no test class: " + test));
        EngineUnderTest engine = c.getAnnotation(EngineUnderTest.class);
        if (engine == null) {
            throw new IllegalStateException(c.getName() + " must name its engine with @EngineUnderTest");
        }
        return engine;
    }

    private static IllegalStateException notFor(Suite suite, String engine, Cover cover, String what) {
        return new IllegalStateException("ConfigurationTable: " + suite + " on " + engine + " is " + cover
                + ", which gives no " + what);
    }

    private static boolean quick() {
        return Boolean.getBoolean(QUICK);
    }

    /** The engine's first wait strategy; null where it is unavailable, so its tests report why. */
    private static String firstWaitStrategy(String engine) {
        EngineProvider p = ConformanceMatrix.provider(engine);
        return p.isAvailable() ? p.waitStrategies().get(0) : null;
    }

    private static ProactorConfig config(String engine, String waitStrategy, int threads, LeaderMode leader) {
        return ProactorConfig.builder().engine(engine).waitStrategy(waitStrategy).threads(threads).leader(leader)
                .strict(true).build();
    }
}
