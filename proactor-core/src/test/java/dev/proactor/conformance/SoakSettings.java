package dev.proactor.conformance;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The settings of one soak run, from system properties (defaults: the default build's ~10 s per engine;
 * {@code -Psoak} sets 10 000 connections and 600 s):
 *
 * <table>
 * <caption>soak properties</caption>
 * <tr><td>{@value #CONNECTIONS}</td><td>client connections kept open at once</td><td>400</td></tr>
 * <tr><td>{@value #SECONDS}</td><td>seconds of fault injection per engine, shared among the leader modes
 *     (2:1 shared:each other mode)</td><td>10</td></tr>
 * <tr><td>{@value #SEED}</td><td>the seed of every random choice; {@code random} for a new one</td>
 *     <td>{@value #DEFAULT_SEED}</td></tr>
 * <tr><td>{@value #THREADS}</td><td>demultiplexor pool threads</td><td>4</td></tr>
 * <tr><td>{@value #LEADERS}</td><td>leader modes to run, comma-separated</td><td>shared,dedicated (io_uring:
 *     shared,dedicated,owner)</td></tr>
 * <tr><td>{@value #WAIT_STRATEGY}</td><td>wait strategy</td><td>the engine's default</td></tr>
 * <tr><td>{@value #CLIENT_THREADS}</td><td>client selector threads</td><td>2</td></tr>
 * <tr><td>{@value #USER_THREADS}</td><td>user threads lent through handleEvents</td><td>2</td></tr>
 * <tr><td>{@value #FAULTS_PER_SECOND}</td><td>fault injection rate</td><td>max(10, connections / 40)</td></tr>
 * <tr><td>{@value #MAX_STALL_MILLIS}</td><td>longest client stall</td><td>2000</td></tr>
 * <tr><td>{@value #IN_FLIGHT_MIB}</td><td>bytes sent and not yet echoed, all connections together (each gets
 *     its share as its largest window): keeps the kernel's TCP memory out of pressure, where it drops segments
 *     and connections stall in retransmission backoff for minutes</td><td>256</td></tr>
 * </table>
 */
public record SoakSettings(ProactorConfig config, int connections, int seconds, long seed, int clientThreads,
                           int userThreads, double faultsPerSecond, int maxStallMillis, long inFlightBytes) {

    public static final String CONNECTIONS = "proactor.soak.connections";
    public static final String SECONDS = "proactor.soak.seconds";
    public static final String SEED = "proactor.soak.seed";
    public static final String THREADS = "proactor.soak.threads";
    public static final String LEADERS = "proactor.soak.leaders";
    public static final String WAIT_STRATEGY = "proactor.soak.waitStrategy";
    public static final String CLIENT_THREADS = "proactor.soak.clientThreads";
    public static final String USER_THREADS = "proactor.soak.userThreads";
    public static final String FAULTS_PER_SECOND = "proactor.soak.faultsPerSecond";
    public static final String MAX_STALL_MILLIS = "proactor.soak.maxStallMillis";
    public static final String IN_FLIGHT_MIB = "proactor.soak.inFlightMiB";
    public static final long DEFAULT_SEED = 20240917L;

    /**
     * The soak runs of {@code engine}: one per leader mode of {@value #LEADERS}, else of {@code defaultLeaders}
     * (comma-separated; {@link ConfigurationTable} gives them), sharing the engine's seconds.
     */
    static Stream<SoakSettings> of(String engine, String defaultLeaders) {
        int connections = intProperty(CONNECTIONS, 400, 1);
        int seconds = intProperty(SECONDS, 10, 1);
        int threads = intProperty(THREADS, 4, 1);
        int clientThreads = intProperty(CLIENT_THREADS, 2, 1);
        int userThreads = intProperty(USER_THREADS, 2, 0);
        int maxStall = intProperty(MAX_STALL_MILLIS, 2000, 101);
        long inFlight = (long) intProperty(IN_FLIGHT_MIB, 256, 1) << 20;
        String rate = System.getProperty(FAULTS_PER_SECOND);
        double faults = rate == null || rate.isBlank() ? Math.max(10, connections / 40.0) : Double.parseDouble(rate);
        long seed = parseSeed();
        List<LeaderMode> leaders = new ArrayList<>();
        for (String l : System.getProperty(LEADERS, defaultLeaders).split(",")) {
            if (!l.isBlank()) {
                leaders.add(ProactorConfig.parseLeader(l));
            }
        }
        int weights = 0;
        for (LeaderMode m : leaders) {
            weights += weight(m);
        }
        List<SoakSettings> all = new ArrayList<>();
        for (LeaderMode m : leaders) {
            int share = Math.max(1, Math.round((float) seconds * weight(m) / weights));
            ProactorConfig config = ProactorConfig.builder().engine(engine)
                    .waitStrategy(System.getProperty(WAIT_STRATEGY)).threads(threads).leader(m).strict(true).build();
            all.add(new SoakSettings(config, connections, share, seed, clientThreads, userThreads, faults, maxStall,
                    inFlight));
        }
        return all.stream();
    }

    private static int weight(LeaderMode m) {
        return m == LeaderMode.SHARED ? 2 : 1;
    }

    private static long parseSeed() {
        String v = System.getProperty(SEED);
        if (v == null || v.isBlank()) {
            return DEFAULT_SEED;
        }
        if (v.trim().toLowerCase(Locale.ROOT).equals("random")) {
            return SoakPattern.mix(System.nanoTime()) & Long.MAX_VALUE;
        }
        return Long.decode(v.trim());
    }

    private static int intProperty(String name, int def, int min) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return def;
        }
        int n = Integer.parseInt(v.trim());
        if (n < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + n);
        }
        return n;
    }

    /** A short name of the engine configuration. */
    String label() {
        return config.engine() + "/" + (config.waitStrategy() == null ? "default" : config.waitStrategy()) + " "
                + config.leader().configName() + " leader, " + config.threads() + " threads";
    }

    @Override
    public String toString() {
        return label() + ", " + connections + " connections, " + seconds + " s, seed " + seed;
    }
}
