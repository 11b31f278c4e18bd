package dev.proactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The build gives every test method a timeout, run in a thread of its own (the parent pom's surefire
 * {@code configurationParameters}, {@code proactor.test.methodTimeout}): a test that hangs then fails with the stack
 * of its thread and the run goes on, instead of holding the build until CI's limit. It fails when the setting no
 * longer reaches this module's tests (checked here, in the first module the parent configures).
 */
@ExtendWith(HungTestsFailTest.Configuration.class)
class HungTestsFailTest {

    @Test
    void everyTestMethodHasATimeoutInAThreadOfItsOwn(ExtensionContext context, TestInfo info) {
        Optional<String> timeout = context.getConfigurationParameter(
                "junit.jupiter.execution.timeout.testable.method.default");
        assertTrue(timeout.isPresent() && !timeout.get().isBlank(), "no default timeout for test methods");
        assertEquals(Optional.of("SEPARATE_THREAD"),
                context.getConfigurationParameter("junit.jupiter.execution.timeout.thread.mode.default"),
                "a hung test run on the runner's own thread would hold it");
        assertNotEquals("main", Thread.currentThread().getName(), info.getDisplayName() + " ran on the main thread");
    }

    /** Hands the test its extension context (to read the configuration parameters the run was given). */
    static final class Configuration implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == ExtensionContext.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return context;
        }
    }
}
