package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    /** What an aarch64 machine gets (the jar carries the x86-64 library only): the reason, then nio. */
    @Test
    void aLibraryOfAnotherArchitectureIsMissingWithTheReason() {
        String fileName = NativeLoader.fileName("aarch64", NativeLibrary.ABI_VERSION);
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLoader.load(fileName));
        assertTrue(e.getMessage().startsWith("META-INF/native/" + fileName + " is not on the class path: this jar was"
                + " built without gcc or for another architecture"), e.getMessage());
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
