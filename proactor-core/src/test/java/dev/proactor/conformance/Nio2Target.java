package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import dev.proactor.spi.EngineProvider;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.stream.Stream;

/**
 * One NIO.2 provider a contract test runs against: the JDK's own (the reference: a contract test that fails on it
 * reads the contract wrong) or ours on one engine configuration. Engine modules return
 * {@link #ofEngine(String)} (and the {@code nio} module also {@link #jdk()}) from a static {@code targets()}
 * method of their concrete test classes.
 *
 * @param name   shown in the test name
 * @param config our provider's configuration; null for the JDK's provider
 */
public record Nio2Target(String name, ProactorConfig config) {

    /** The JDK's default provider (the test JVM has no provider property). */
    public static Nio2Target jdk() {
        return new Nio2Target("jdk", null);
    }

    /**
     * Our provider on {@code engine}: its default wait strategy with a shared and with a dedicated leader (group
     * sizes come from the NIO.2 calls, so thread counts are not varied here).
     */
    public static Stream<Nio2Target> ofEngine(String engine) {
        return Stream.of(LeaderMode.values()).map(mode -> new Nio2Target(engine + "/" + mode.name().toLowerCase(),
                ProactorConfig.builder().engine(engine).leader(mode).strict(true).build()));
    }

    /** Whether this is the JDK's provider. */
    public boolean isJdk() {
        return config == null;
    }

    /**
     * A provider instance for one test (ours: a new instance, so its default group is the test's own), or skips
     * the test if the engine is unavailable here.
     */
    public AsynchronousChannelProvider open() {
        if (config == null) {
            AsynchronousChannelProvider p = AsynchronousChannelProvider.provider();
            assertTrue(p.getClass().getName().startsWith("sun.nio.ch."),
                    () -> "the reference must be the JDK's provider, was " + p);
            return p;
        }
        EngineProvider engine = ConformanceMatrix.provider(config.engine());
        assumeTrue(engine.isAvailable(),
                () -> "engine " + config.engine() + " unavailable: " + engine.unavailabilityCause());
        return new ProactorAsynchronousChannelProvider(config);
    }

    @Override
    public String toString() {
        return name;
    }
}
