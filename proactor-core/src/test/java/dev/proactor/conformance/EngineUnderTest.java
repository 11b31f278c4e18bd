package dev.proactor.conformance;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The engine a concrete conformance test class runs its suite on (engine modules declare one class per suite and
 * engine). Which configurations of the engine the suite runs is {@link ConfigurationTable}'s decision, not the
 * class's.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface EngineUnderTest {

    /** The engine names ({@code EngineProvider.name()}), in the order their runs are listed. */
    String[] value();

    /**
     * The table's row when it is not the one the suite's abstract class names: a variant of the suite with a row of
     * its own (io_uring's ring-only socket suite). Empty: the abstract class's row.
     */
    ConfigurationTable.Suite[] suite() default {};
}
