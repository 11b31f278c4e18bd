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
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Which {@link AsynchronousChannelProvider} this JVM really runs, checked against what the build asked for. The
 * {@code *AppTest} classes run once per surefire execution of {@code examples/pom.xml}: with no property (the
 * JDK's own provider, the reference) and once per engine with
 * {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
 * -Dproactor.engine=<engine>}. The JDK reads that property once per JVM, so each execution is its own fork.
 *
 * <p>Each application test class carries {@code @ExtendWith(ProviderUnderTest.class)}, which skips all its tests,
 * with the engine's own reason, when the asked engine cannot run on this machine; its {@code @BeforeAll} calls
 * {@link #check()}, which fails the test when the provider in use is not the one asked for (e.g. the property was
 * set too late, after something had already loaded the JDK's provider).
 */
final class ProviderUnderTest implements ExecutionCondition {

    /** The JDK's system property naming the provider class. */
    static final String PROVIDER_PROPERTY = "java.nio.channels.spi.AsynchronousChannelProvider";

    /** For {@code @ExtendWith}: JUnit makes it. */
    ProviderUnderTest() {
    }

    /**
     * Disables the whole class, every test reported as skipped with the engine's reason, when the asked engine
     * cannot run on this machine (an assumption failing in {@code @BeforeAll} would hide the tests and the reason
     * from surefire's report).
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String unavailable = unavailableEngine();
        return unavailable == null ? ConditionEvaluationResult.enabled("the provider's engine is available")
                : ConditionEvaluationResult.disabled(unavailable);
    }

    /** Why the asked engine cannot run here, or null when it can (or the JDK's provider is asked for). */
    private static String unavailableEngine() {
        if (System.getProperty(PROVIDER_PROPERTY) == null) {
            return null;
        }
        String engine = System.getProperty(ProactorConfig.ENGINE, ProactorConfig.DEFAULT_ENGINE);
        EngineProvider p = engineProvider(engine);
        return p.isAvailable() ? null : "engine '" + engine + "' is unavailable on this machine: "
                + p.unavailabilityCause();
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
        String unavailable = unavailableEngine();
        assumeTrue(unavailable == null, unavailable);
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
