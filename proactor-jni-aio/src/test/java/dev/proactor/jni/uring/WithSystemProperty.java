package dev.proactor.jni.uring;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class with a system property set, whatever the run set it to, and puts the run's value back after the
 * class: a whole suite run again with an engine switch ({@code proactor.uring.*}) on or off whatever its default.
 * The engine reads its switches when it is made, so every engine the class's tests make sees the value.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(WithSystemProperty.Extension.class)
@interface WithSystemProperty {

    /** The property's name. */
    String name();

    /** Its value while the class runs. */
    String value();

    /** Sets the property before the class's first test, restores the run's value (or its absence) after its last. */
    final class Extension implements BeforeAllCallback, AfterAllCallback {

        private static final ExtensionContext.Namespace NAMESPACE =
                ExtensionContext.Namespace.create(WithSystemProperty.class);
        /** Stands for "not set" in the store, which holds no nulls. */
        private static final String ABSENT = "\0absent";

        @Override
        public void beforeAll(ExtensionContext context) {
            WithSystemProperty p = annotation(context);
            String before = System.getProperty(p.name());
            context.getStore(NAMESPACE).put(p.name(), before == null ? ABSENT : before);
            System.setProperty(p.name(), p.value());
        }

        @Override
        public void afterAll(ExtensionContext context) {
            WithSystemProperty p = annotation(context);
            String before = context.getStore(NAMESPACE).remove(p.name(), String.class);
            if (before == null || before.equals(ABSENT)) {
                System.clearProperty(p.name());
            } else {
                System.setProperty(p.name(), before);
            }
        }

        private static WithSystemProperty annotation(ExtensionContext context) {
            return context.getRequiredTestClass().getAnnotation(WithSystemProperty.class);
        }
    }
}
