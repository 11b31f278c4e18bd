package dev.proactor.bench.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.OpenOption;
import org.junit.jupiter.api.Test;

/** The option found by name is the JDK's own constant, so the JDK's channels honour it as before. */
class JdkDirectOptionTest {

    @Test
    void isTheJdksExtendedOpenOptionDirect() {
        OpenOption direct = JdkDirectOption.get();
        assertEquals("com.sun.nio.file.ExtendedOpenOption", direct.getClass().getName());
        assertEquals("DIRECT", ((Enum<?>) direct).name());
        assertSame(direct, JdkDirectOption.get());
    }
}
