package dev.proactor.jni;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Skips a test, with the reason, on a machine where the native library was not built (no gcc, not
 * Linux x86-64). A library that was built but cannot be used (ABI or registration mismatch, linker
 * error) fails the test instead: that is a bug, not a missing platform.
 */
public final class NativeTestSupport {

    /** Set by the module's pom to the library file the build was to produce. */
    private static final String EXPECTED_FILE_PROPERTY = "proactor.native.expectedFile";

    private NativeTestSupport() {
    }

    /** Aborts (skips) the calling test or class unless the native library is available. */
    public static void assumeNativeLibrary() {
        if (NativeLibrary.isAvailable()) {
            return;
        }
        Throwable cause = NativeLibrary.unavailabilityCause();
        String expected = System.getProperty(EXPECTED_FILE_PROPERTY);
        if (expected != null && Files.exists(Path.of(expected))) {
            fail("the native library " + expected + " was built but cannot be used", cause);
        }
        assumeTrue(false, () -> "native library unavailable (not built for this machine): " + cause);
    }

    /** Aborts (skips) the calling test or class unless the epoll engine is available. */
    public static void assumeEpoll() {
        assumeNativeLibrary();
        assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
    }
}
