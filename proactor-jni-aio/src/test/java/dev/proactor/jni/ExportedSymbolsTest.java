package dev.proactor.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Only the JNI entry points may be visible: every other C function is hidden (-fvisibility=hidden). */
class ExportedSymbolsTest {

    private static final Set<String> ALLOWED = Set.of("JNI_OnLoad", "JNI_OnUnload");

    @Test
    void libraryExportsOnlyJniEntryPoints() throws Exception {
        NativeTestSupport.assumeNativeLibrary();
        Path library = NativeLibrary.loadedFrom();
        assumeTrue(Files.exists(library), "the loaded copy was extracted and deleted: " + library);
        Set<String> exported = definedDynamicSymbols(library);
        assertTrue(exported.contains("JNI_OnLoad"), () -> "JNI_OnLoad not exported: " + exported);
        Set<String> unexpected = new TreeSet<>(exported);
        unexpected.removeAll(ALLOWED);
        assertEquals(Set.of(), unexpected, "symbols exported besides the JNI entry points");
    }

    private static Set<String> definedDynamicSymbols(Path library) throws IOException, InterruptedException {
        Process nm;
        try {
            nm = new ProcessBuilder("nm", "-D", "--defined-only", library.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "nm (binutils) is not installed: " + e.getMessage());
            throw e;
        }
        String output = new String(nm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, nm.waitFor(), () -> "nm failed: " + output);
        Set<String> symbols = new TreeSet<>();
        for (String line : output.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            // "<address> <type> <name>"; the type is upper case for global symbols.
            if (fields.length == 3 && Character.isUpperCase(fields[1].charAt(0))) {
                symbols.add(fields[2]);
            }
        }
        return symbols;
    }
}
