package dev.proactor.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.internal.LibraryNative;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {

    @BeforeEach
    void requireNativeLibrary() {
        NativeTestSupport.assumeNativeLibrary();
    }

    @Test
    void loadingTwiceIsHarmlessAndGivesTheSameOutcome() {
        NativeLibrary.ensureAvailability();
        Path first = NativeLibrary.loadedFrom();
        NativeLibrary.ensureAvailability();
        assertTrue(NativeLibrary.isAvailable());
        assertNull(NativeLibrary.unavailabilityCause());
        assertSame(first, NativeLibrary.loadedFrom());
        // Loading the same file again through the JVM is a no-op too: natives stay registered.
        System.load(first.toString());
        assertEquals(NativeLibrary.ABI_VERSION, LibraryNative.abiVersion());
    }

    @Test
    void concurrentFirstUseSeesOneOutcome() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Path>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(() -> {
                    NativeLibrary.ensureAvailability();
                    return NativeLibrary.loadedFrom();
                });
            }
            Path expected = NativeLibrary.loadedFrom();
            for (Future<Path> result : pool.invokeAll(calls)) {
                assertSame(expected, result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void nativeAbiVersionMatchesJavaConstant() {
        assertEquals(NativeLibrary.ABI_VERSION, LibraryNative.abiVersion());
    }

    @Test
    void fileNameIsArchitectureAndVersionQualifiedAndMatchesTheBuild() {
        assertEquals("libproactor-jni-x86_64-" + NativeLibrary.ABI_VERSION + ".so", NativeLibrary.fileName());
        String built = System.getProperty("proactor.native.expectedFile");
        assumeTrue(built != null, "not run by Maven: no proactor.native.expectedFile");
        // The pom's proactor.native.abiVersion and NativeLibrary.ABI_VERSION must agree.
        assertEquals(Path.of(built).getFileName().toString(), NativeLibrary.fileName());
        assertEquals(Path.of(built).toAbsolutePath(), NativeLibrary.loadedFrom().toAbsolutePath());
    }

    @Test
    void epollIsAvailableOnLinux() {
        Epoll.ensureAvailability();
        assertTrue(Epoll.isAvailable());
        assertNull(Epoll.unavailabilityCause());
    }
}
