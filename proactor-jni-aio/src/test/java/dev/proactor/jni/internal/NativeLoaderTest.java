package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeLibrary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Naming and messages of the loader; needs no native library. */
class NativeLoaderTest {

    @Test
    void fileNamesUseTheKernelsArchitectureNames() {
        assertEquals("x86_64", NativeLoader.architecture("amd64"));
        assertEquals("x86_64", NativeLoader.architecture("x86_64"));
        assertEquals("aarch64", NativeLoader.architecture("aarch64"));
        assertEquals("riscv64", NativeLoader.architecture("riscv64"));
        assertEquals("libproactor-jni-x86_64-7.so", NativeLoader.fileName("x86_64", 7));
    }

    @Test
    void noexecFailureTellsTheUserWhatToSet() {
        String message = NativeLoader.explainLoadFailure(Path.of("/tmp/libx.so"),
                "/tmp/libx.so: failed to map segment from shared object");
        assertTrue(message.contains("noexec"), message);
        assertTrue(message.contains("-D" + NativeLibrary.WORKDIR_PROPERTY), message);
        assertFalse(NativeLoader.explainLoadFailure(Path.of("/tmp/libx.so"), "wrong ELF class").contains("noexec"));
    }
}
