package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import dev.proactor.spi.EngineProvider;
import java.nio.channels.spi.AsynchronousChannelProvider;

/**
 * One NIO.2 provider a contract test runs against: the JDK's own (the reference: a contract test that fails on it
 * reads the contract wrong) or ours on one engine configuration ({@link ConfigurationTable} lists them).
 *
 * @param name   shown in the test name
 * @param config our provider's configuration; null for the JDK's provider
 */
public record Nio2Target(String name, ProactorConfig config) {

    /** The JDK's default provider (the test JVM has no provider property). */
    public static Nio2Target jdk() {
        return new Nio2Target("jdk", null);
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
