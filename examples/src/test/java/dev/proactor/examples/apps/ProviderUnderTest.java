package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import dev.proactor.spi.EngineProvider;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.ServiceLoader;

/**
 * Which {@link AsynchronousChannelProvider} this JVM really runs, checked against what the build asked for. The
 * {@code *AppTest} classes run once per surefire execution of {@code examples/pom.xml}: with no property (the
 * JDK's own provider, the reference) and once per engine with
 * {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
 * -Dproactor.engine=<engine>}. The JDK reads that property once per JVM, so each execution is its own fork.
 *
 * <p>{@link #check()} fails the test when the provider in use is not the one asked for (e.g. the property was
 * set too late, after something had already loaded the JDK's provider), and skips it, with the engine's own
 * reason, when the asked engine cannot run on this machine.
 */
final class ProviderUnderTest {

    /** The JDK's system property naming the provider class. */
    static final String PROVIDER_PROPERTY = "java.nio.channels.spi.AsynchronousChannelProvider";

    private ProviderUnderTest() {
    }

    /**
     * Asserts the JVM-wide provider matches the properties and returns a label for it: {@code jdk} for the
     * JDK's provider, else the engine name. Skips (JUnit assumption) when the asked engine is unavailable.
     */
    static String check() {
        String asked = System.getProperty(PROVIDER_PROPERTY);
        String engine = System.getProperty(ProactorConfig.ENGINE);
        AsynchronousChannelProvider provider = AsynchronousChannelProvider.provider();
        String actual = provider.getClass().getName();
        if (asked == null) {
            assertTrue(actual.startsWith("sun.nio.ch."),
                    "no " + PROVIDER_PROPERTY + " given, so the JDK's provider must be in use; found " + actual);
            return "jdk";
        }
        assertEquals(asked, actual, "the provider in use is not the one " + PROVIDER_PROPERTY + " names");
        ProactorAsynchronousChannelProvider ours = assertInstanceOf(ProactorAsynchronousChannelProvider.class,
                provider);
        String expectedEngine = engine == null ? ProactorConfig.DEFAULT_ENGINE : engine;
        assertEquals(expectedEngine, ours.getConfig().engine(), "engine of the provider in use");
        EngineProvider engineProvider = engineProvider(expectedEngine);
        assumeTrue(engineProvider.isAvailable(), () -> "engine '" + expectedEngine + "' is unavailable on this"
                + " machine: " + engineProvider.unavailabilityCause());
        return expectedEngine;
    }

    private static EngineProvider engineProvider(String name) {
        for (EngineProvider p : ServiceLoader.load(EngineProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no engine named '" + name + "' on the test class path");
    }
}
